function [cardPicked, moveFrom, moveTo, wDir] = AIBad(currentPlayer, board, cardA1, cardA2, cardB1, cardB2, sideCard, turn)
% LudoGame's test AI: plays as AIWall, then with 16 or fewer turns left gives a wrong
% output, by the turns left plus the wall's column: card 7 (a multiple of 3), square z9
% (one more), else wall x.
[cardPicked, moveFrom, moveTo, wDir] = wall_move(currentPlayer, board, cardA1, cardA2, cardB1, cardB2, sideCard, turn);
[~, wallColumn] = find(board == 'W');
if turn <= 16
    switch mod(turn + wallColumn, 3)
        case 0
            cardPicked = 7;
        case 1
            moveTo = 'z9';
        otherwise
            wDir = 'x';
    end
end
end

function [cardPicked, moveFrom, moveTo, wDir] = wall_move(currentPlayer, board, cardA1, cardA2, cardB1, cardB2, sideCard, turn)
% LudoGame's test AI: a capture or a win if there is one, else the last valid pawn move
% (card 2 then 1, pawns in reverse column-major order); then the first valid wall step
% of u, r, d, l (else s). Passes with card 2 and a valid wall step.
if currentPlayer == 'A'
    cards = {cardA1, cardA2};
    other = 'B';
else
    cards = {rot90(cardB1, 2), rot90(cardB2, 2)};
    other = 'A';
end
best = [];
for k = [2 1]
    card = cards{k};
    [ro, co] = find(card == 'o');
    [rx, cx] = find(card == 'x');
    [rp, cp] = find(upper(board) == currentPlayer);
    for p = numel(rp):-1:1
        for m = 1:numel(rx)
            r = rp(p) + rx(m) - ro;
            c = cp(p) + cx(m) - co;
            if r >= 1 && r <= 5 && c >= 1 && c <= 5 && upper(board(r, c)) ~= currentPlayer && board(r, c) ~= 'W'
                move = [k rp(p) cp(p) r c];
                if isempty(best)
                    best = move;
                end
                if upper(board(r, c)) == other
                    best = move;
                end
            end
        end
    end
end
after = board;
if isempty(best)
    cardPicked = 2;
    moveFrom = 'XX';
    moveTo = 'XX';
else
    cardPicked = best(1);
    moveFrom = [char('a' + best(2) - 1), char('0' + best(3))];
    moveTo = [char('a' + best(4) - 1), char('0' + best(5))];
    after(best(4), best(5)) = after(best(2), best(3));
    after(best(2), best(3)) = ' ';
end
[rw, cw] = find(after == 'W');
steps = 'urdl';
dr = [-1 0 1 0];
dc = [0 1 0 -1];
wDir = 's';
for k = 1:4
    r = rw + dr(k);
    c = cw + dc(k);
    if r >= 1 && r <= 5 && c >= 1 && c <= 5 && ~(c == 3 && (r == 1 || r == 5))
        t = after(r, c);
        if t == ' ' || t == lower(currentPlayer)
            wDir = steps(k);
            return;
        end
    end
end
end
