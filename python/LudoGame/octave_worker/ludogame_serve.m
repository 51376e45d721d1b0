function ludogame_serve(in, out, token, name)
% The worker's loop (see ludogame_worker.m): a function, so that the AI cannot see or
% change the loop's variables.
  while true
    block = fread(in, [1 4096], 'char=>char');
    if numel(block) < 4096 || strcmp(block(1:3), 'BYE')
      return;
    end
    player = block(4);
    board = reshape(block(5:29), 5, 5)';
    cards = cell(1, 5);
    for k = 1:5
      cards{k} = reshape(block(30 + 25 * (k - 1):29 + 25 * k), 5, 5)';
    end
    turn = str2double(strtrim(block(155:170)));
    try
      [cardPicked, moveFrom, moveTo, wDir] = feval(name, player, board, cards{:}, turn);
      line = sprintf('%s OK %s %s %s %s\n', token, ludogame_enc(cardPicked), ...
        ludogame_enc(moveFrom), ludogame_enc(moveTo), ludogame_enc(wDir));
    catch err
      % the coursework referee's words (AIvsAI.m)
      if isempty(err.stack)
        message = err.message;
      else
        message = sprintf('Error in function %s() at line %d.\n\nError Message:\n%s', ...
          err.stack(1).name, err.stack(1).line, err.message);
      end
      line = sprintf('%s ERR %s\n', token, ludogame_hex(message));
    end
    fprintf(out, '%s', line);
    fflush(out);
  end
end

function s = ludogame_enc(v)
% One output value as a space-free word: 'c' and the character codes of a char row,
% 'n' and a real numeric scalar, else 'o' and the class and size.
  if ischar(v) && (isempty(v) || isrow(v))
    s = ['c' ludogame_hex(v)];
  elseif (isnumeric(v) || islogical(v)) && isscalar(v) && isreal(v)
    s = ['n' sprintf('%.17g', double(v))];
  else
    s = ['o' class(v) '.' sprintf('%dx', size(v))];
  end
end

function s = ludogame_hex(text)
  s = sprintf('%x.', double(text));
end
