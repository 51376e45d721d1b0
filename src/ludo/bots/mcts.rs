//! MCTS: the tree holds decision nodes (one child per distinct move) and dice nodes (one child
//! per distinct roll outcome, with its probability). Each iteration walks down the tree (UCB
//! at decisions, the least-visited outcome relative to its probability at dice), expands the
//! dice node it reaches (every roll, and every reply to it), and scores the new positions
//! with a race estimate. Values back up exactly: the expectation at dice nodes, the mover's
//! best child at decision nodes. No random playouts: their noise cost more than their depth
//! gave.

use super::*;

/// A node of the tree.
pub(super) struct Node {
    /// A decision (move phase), a dice node (roll phase) or a finished game.
    game: Game,
    /// The estimated reward of every seat.
    value: [f64; MAX_SEATS],
    visits: u32,
    /// The node's children are `children[first..first + count]` once expanded.
    first: u32,
    count: u8,
    expanded: bool,
}

/// A child: its node, its probability (dice nodes) and the token that moves (decisions;
/// the first token at dice nodes, where it means nothing).
pub(super) struct Child {
    node: u32,
    prob: f64,
    token: Token,
}

pub(super) struct Tree<'w> {
    nodes: Vec<Node>,
    children: Vec<Child>,
    weights: &'w Weights,
}

/// A roll that leaves only one move (or only moves to the same position) is played at once.
pub(super) fn settle(game: Game) -> Game {
    if let Phase::Move(_) = game.phase() {
        let mut only: Option<Game> = None;
        for mv in game.legal_moves().iter() {
            let mut child = game;
            let _ = child.play(mv);
            match only {
                None => only = Some(child),
                Some(o) if o == child => {}
                Some(_) => return game,
            }
        }
        if let Some(o) = only {
            return o;
        }
    }
    game
}

impl Tree<'_> {
    fn add(&mut self, game: Game) -> u32 {
        let value = match game.phase() {
            Phase::Move(_) => [0.0; MAX_SEATS], // set when expanded, right away
            _ => leaf_values(&game, self.weights),
        };
        self.nodes.push(Node {
            game,
            value,
            visits: 0,
            first: 0,
            count: 0,
            expanded: false,
        });
        self.nodes.len() as u32 - 1
    }

    fn kids(&self, at: u32) -> &[Child] {
        let node = &self.nodes[at as usize];
        &self.children[node.first as usize..node.first as usize + node.count as usize]
    }

    /// Give node `at` its children: one per distinct move at a decision, one per distinct
    /// outcome at a dice node (decision outcomes are expanded too, so that every new
    /// position is scored).
    fn expand(&mut self, at: u32) {
        let game = self.nodes[at as usize].game;
        let mut kids: [(u32, f64, Token); 6] = [(0, 0.0, Token::FIRST); 6];
        let mut count = 0;
        match game.phase() {
            Phase::Over => {}
            Phase::Move(_) => {
                for mv in game.legal_moves().iter() {
                    let mut child = game;
                    let _ = child.play(mv);
                    if kids[..count]
                        .iter()
                        .any(|k| self.nodes[k.0 as usize].game == child)
                    {
                        continue;
                    }
                    if count < kids.len() {
                        kids[count] = (self.add(child), 0.0, mv.token);
                        count += 1;
                    }
                }
            }
            Phase::Roll => {
                for value in 1..=6 {
                    let mut child = game;
                    let _ = child.roll(value);
                    let child = settle(child);
                    if let Some(k) = kids[..count]
                        .iter_mut()
                        .find(|k| self.nodes[k.0 as usize].game == child)
                    {
                        k.1 += 1.0 / 6.0;
                        continue;
                    }
                    kids[count] = (self.add(child), 1.0 / 6.0, Token::FIRST);
                    count += 1;
                }
            }
        }
        let first = self.children.len() as u32;
        for &(node, prob, token) in &kids[..count] {
            self.children.push(Child { node, prob, token });
        }
        let node = &mut self.nodes[at as usize];
        node.first = first;
        node.count = count as u8;
        node.expanded = true;
        for &(child, _, _) in &kids[..count] {
            if let Phase::Move(_) = self.nodes[child as usize].game.phase() {
                self.expand(child);
            }
        }
        self.refresh(at);
    }

    /// A node's value from its children: the expectation at a dice node, the mover's best
    /// child at a decision.
    fn refresh(&mut self, at: u32) {
        let node = &self.nodes[at as usize];
        if node.count == 0 {
            return;
        }
        let mut value = [0.0; MAX_SEATS];
        if node.game.phase() == Phase::Roll {
            for c in self.kids(at) {
                let child = &self.nodes[c.node as usize].value;
                for (v, x) in value.iter_mut().zip(child) {
                    *v += c.prob * x;
                }
            }
        } else {
            let mover = node.game.current_player();
            let mut best = f64::NEG_INFINITY;
            for c in self.kids(at) {
                let child = &self.nodes[c.node as usize].value;
                if child[mover] > best {
                    best = child[mover];
                    value = *child;
                }
            }
        }
        self.nodes[at as usize].value = value;
    }

    /// The child to walk down to from `at` (expanded, not over), if any.
    fn select(&self, at: u32, c: f64) -> Option<u32> {
        let node = &self.nodes[at as usize];
        let mut best = (f64::NEG_INFINITY, None);
        if node.game.phase() == Phase::Roll {
            // Visit the outcomes in proportion to their probabilities.
            for k in self.kids(at) {
                let child = &self.nodes[k.node as usize];
                let score = k.prob / (child.visits as f64 + 1.0);
                if !child.game.is_over() && score > best.0 {
                    best = (score, Some(k.node));
                }
            }
        } else {
            let mover = node.game.current_player();
            let ln = (node.visits as f64 + 1.0).ln();
            for k in self.kids(at) {
                let child = &self.nodes[k.node as usize];
                let score = child.value[mover] + c * (ln / (child.visits as f64 + 1.0)).sqrt();
                if !child.game.is_over() && score > best.0 {
                    best = (score, Some(k.node));
                }
            }
        }
        best.1
    }
}

/// UCB exploration constant (rewards are win chances in [0, 1]).
pub(super) const UCB_C: f64 = 0.2;

/// The largest playout budget `mcts:N` accepts.
pub const MAX_PLAYOUTS: u32 = 10_000_000;

/// The most nodes an MCTS tree grows to (176 bytes a node with its edge: about 0.7 GB); a
/// search whose tree is full stops there, as if its budget were spent.
pub const MAX_TREE_NODES: usize = 4 << 20;

/// The MCTS move in `game` (which waits for a move) after `iterations` tree iterations, or
/// fewer when the tree reaches [`MAX_TREE_NODES`] or `stop` is requested. The tree grows
/// as it is searched: nothing is reserved for the whole budget up front.
pub(crate) fn mcts_search(
    game: &Game,
    iterations: u32,
    c: f64,
    weights: &Weights,
    stop: Option<&Stop>,
) -> Move {
    let moves = game.legal_moves();
    let guess = (iterations as usize * 8 + 8).min(1 << 12);
    let mut tree = Tree {
        nodes: Vec::with_capacity(guess),
        children: Vec::with_capacity(guess),
        weights,
    };
    let root = tree.add(*game);
    tree.expand(root);
    if tree.nodes[root as usize].count > 1 {
        let mut path = Vec::new();
        for _ in 0..iterations {
            // One iteration adds at most a few dozen nodes.
            if tree.nodes.len() >= MAX_TREE_NODES || stop.is_some_and(Stop::requested) {
                break;
            }
            path.clear();
            let mut at = root;
            loop {
                path.push(at);
                if !tree.nodes[at as usize].expanded {
                    tree.expand(at);
                    break;
                }
                match tree.select(at, c) {
                    Some(next) => at = next,
                    None => break,
                }
            }
            for &i in path.iter().rev() {
                tree.nodes[i as usize].visits += 1;
                tree.refresh(i);
            }
        }
    }
    let mover = game.current_player();
    let mut best = (f64::NEG_INFINITY, None);
    for k in tree.kids(root) {
        let v = tree.nodes[k.node as usize].value[mover];
        if v > best.0 {
            best = (v, Some(k.token));
        }
    }
    best.1
        .and_then(|token| moves.iter().find(|m| m.token == token))
        .unwrap_or_else(|| nth(&moves, 0))
}
