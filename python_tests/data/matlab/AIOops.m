function [cardPicked, moveFrom, moveTo, wDir] = AIOops(currentPlayer, board, cardA1, cardA2, cardB1, cardB2, sideCard, turn)
% LudoGame's test AI: plays as AIFirst, then raises an error when 16 or fewer turns are left.
if turn <= 16
    error('out of ideas with %d turns left', turn);
end
[cardPicked, moveFrom, moveTo, wDir] = first_move(currentPlayer, board, cardA1, cardA2, cardB1, cardB2, sideCard, turn);
end

function [cardPicked, moveFrom, moveTo, wDir] = first_move(currentPlayer, board, cardA1, cardA2, cardB1, cardB2, sideCard, turn)
% LudoGame's test AI: the first valid pawn move (card 1 then 2, pawns in column-major
% order, the card's marks in column-major order), the wall stays. Passes with card 1.
if currentPlayer == 'A'
    cards = {cardA1, cardA2};
else
    cards = {rot90(cardB1, 2), rot90(cardB2, 2)};
end
wDir = 's';
for cardPicked = 1:2
    card = cards{cardPicked};
    [ro, co] = find(card == 'o');
    [rx, cx] = find(card == 'x');
    [rp, cp] = find(upper(board) == currentPlayer);
    for p = 1:numel(rp)
        for m = 1:numel(rx)
            r = rp(p) + rx(m) - ro;
            c = cp(p) + cx(m) - co;
            if r >= 1 && r <= 5 && c >= 1 && c <= 5 && upper(board(r, c)) ~= currentPlayer && board(r, c) ~= 'W'
                moveFrom = [char('a' + rp(p) - 1), char('0' + cp(p))];
                moveTo = [char('a' + r - 1), char('0' + c)];
                return;
            end
        end
    end
end
cardPicked = 1;
moveFrom = 'XX';
moveTo = 'XX';
end
