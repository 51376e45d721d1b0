// LudoGame's own driver for maxbennedich/onitama's searcher (their code is not in this
// repository: see README.md here for how to rebuild it). It is compiled against their classes
// and kept running by maxb_engine.py, which speaks our `onitama engine` protocol and sends this
// program one position at a time. One line in, one line out:
//
//   search MS DEPTH PLAYER BOARD C00 C01 C10 C11 SIDE   (DEPTH 0: their maximum)
//       -> move CARD PX PY NX NY score S depth D nodes N ms T
//   moves PLAYER BOARD C00 C01 C10 C11 SIDE
//       -> moves CARD:PX:PY:NX:NY ...   (their move generator's moves, for checks)
//   quit
//
// BOARD is their 25-character board, row y = 0 first (the row their player 1, blue, starts
// on): 'r'/'R' their player 0's student/master, 'b'/'B' player 1's, '.' empty. PLAYER is the
// side to move (0 or 1); C00 C01 are player 0's cards, C10 C11 player 1's, SIDE the side card,
// by their Card enum names. A search is theirs as their AIPlayer runs it: a new Searcher per
// move, their PST evaluator, their suggested TT size for the time, their own time control,
// on this one thread (no pondering).

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import onitama.ai.AIUtils;
import onitama.ai.Searcher;
import onitama.ai.TranspositionTable;
import onitama.common.Utils;
import onitama.model.Card;
import onitama.model.CardState;
import onitama.model.GameState;
import onitama.model.Move;
import onitama.model.Pair;
import onitama.model.SearchParameters;

public class MaxbDriver {
    private static final String START = "bbBbb" + "....." + "....." + "....." + "rrRrr";

    public static void main(String[] args) throws Exception {
        // Our answers go to the real stdout; anything their code prints goes to stderr.
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
        System.setOut(System.err);

        int warmupMs = args.length > 0 ? Integer.parseInt(args[0]) : 3000;
        warmUp(warmupMs);
        out.println("ready");

        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            String[] w = line.trim().split("\\s+");
            if (w.length == 0 || w[0].isEmpty()) continue;
            try {
                switch (w[0]) {
                    case "quit":
                        return;
                    case "search":
                        out.println(search(Integer.parseInt(w[1]), Integer.parseInt(w[2]), w, 3));
                        break;
                    case "moves":
                        out.println(moves(w, 1));
                        break;
                    default:
                        out.println("error unknown command " + w[0]);
                }
            } catch (RuntimeException e) {
                out.println("error " + e);
            }
        }
    }

    /** Pays the JIT's warm-up before the first real move: searches of the start position. */
    private static void warmUp(int totalMs) {
        Card[] c = {Card.Tiger, Card.Crab, Card.Monkey, Card.Crane, Card.Dragon};
        for (long end = System.currentTimeMillis() + totalMs; System.currentTimeMillis() < end; ) {
            String[] w = {"search", "200", "0", "0", START, c[0].name(), c[1].name(), c[2].name(), c[3].name(), c[4].name()};
            search(200, 0, w, 3);
        }
    }

    private static CardState cards(String[] w, int at) {
        return new CardState(new Card[][] {{Card.valueOf(w[at]), Card.valueOf(w[at + 1])},
                {Card.valueOf(w[at + 2]), Card.valueOf(w[at + 3])}}, Card.valueOf(w[at + 4]));
    }

    private static String search(int ms, int depth, String[] w, int at) {
        int player = Integer.parseInt(w[at]);
        String board = w[at + 1];
        if (board.length() != 25) throw new IllegalArgumentException("board of " + board.length() + " squares");
        int maxDepth = depth > 0 ? Math.min(depth, Searcher.MAX_NOMINAL_DEPTH) : Searcher.MAX_NOMINAL_DEPTH;
        // their GUI's choice of TT size, capped at 2^24 entries (192 MB) for a search by depth alone
        int ttBits = Math.min(TranspositionTable.getSuggestedSize(maxDepth, ms), 24);
        SearchParameters params = new SearchParameters(ttBits, maxDepth, ms);
        long t0 = System.nanoTime();
        Searcher searcher = new Searcher(params, Utils.NO_LOGGER, false);
        searcher.setState(player, board, cards(w, at + 2));
        searcher.start();
        Move m = searcher.getBestMove();
        long took = (System.nanoTime() - t0) / 1_000_000;
        return String.format("move %s %d %d %d %d score %d depth %d nodes %d ms %d", m.card.name(), m.px, m.py,
                m.nx, m.ny, m.score, searcher.getScoreSearchNominalDepth(), m.nodesEvaluated, took);
    }

    private static String moves(String[] w, int at) {
        int player = Integer.parseInt(w[at]);
        GameState state = new GameState(w[at + 1], cards(w, at + 2));
        List<Pair<Move, GameState>> all = AIUtils.getPossibleMoves(player, state);
        StringBuilder sb = new StringBuilder("moves");
        for (Pair<Move, GameState> p : all) {
            Move m = p.p;
            sb.append(String.format(" %s:%d:%d:%d:%d", m.card.name(), m.px, m.py, m.nx, m.ny));
        }
        return sb.toString();
    }
}
