function ludogame_serve(in, out, token, name)
% The worker's loop (see ludogame_worker.m): a function, so that the AI cannot see or
% change the loop's variables. Kept lean: Octave's calls are slow, and this loop is the
% bridge's whole overhead per move.
  while true
    block = fread(in, [1 4096], 'char=>char');
    if numel(block) < 4096 || block(1) == 'B'
      return;
    end
    % the board and the five cards, each 25 characters row by row
    grids = permute(reshape(block(5:154), 5, 5, 6), [2 1 3]);
    try
      [cardPicked, moveFrom, moveTo, wDir] = feval(name, block(4), grids(:, :, 1), ...
        grids(:, :, 2), grids(:, :, 3), grids(:, :, 4), grids(:, :, 5), grids(:, :, 6), ...
        str2double(block(155:170)));
      if isnumeric(cardPicked) && isscalar(cardPicked) && isreal(cardPicked) ...
          && ischar(moveFrom) && isrow(moveFrom) && ischar(moveTo) && isrow(moveTo) ...
          && ischar(wDir) && isrow(wDir)
        % the usual answer, in one go
        line = sprintf('%s OK n%.17g c%s c%s c%s\n', token, double(cardPicked), ...
          sprintf('%x.', double(moveFrom)), sprintf('%x.', double(moveTo)), ...
          sprintf('%x.', double(wDir)));
      else
        line = sprintf('%s OK %s %s %s %s\n', token, ludogame_enc(cardPicked), ...
          ludogame_enc(moveFrom), ludogame_enc(moveTo), ludogame_enc(wDir));
      end
    catch err
      % the coursework referee's words (AIvsAI.m)
      if isempty(err.stack)
        message = err.message;
      else
        message = sprintf('Error in function %s() at line %d.\n\nError Message:\n%s', ...
          err.stack(1).name, err.stack(1).line, err.message);
      end
      if numel(message) > 2000  % the line stays under the reader's 16 KB (MAX_LINE_BYTES)
        message = sprintf('%s... (%d more characters)', message(1:2000), numel(message) - 2000);
      end
      line = sprintf('%s ERR %s\n', token, sprintf('%x.', double(message)));
    end
    fwrite(out, line);
    fflush(out);
  end
end

function s = ludogame_enc(v)
% One output value as a space-free word: 'c' and the character codes of a char row,
% 'n' and a real numeric scalar, else 'o' and the class and size.
  if ischar(v) && (isempty(v) || isrow(v))
    s = ['c' sprintf('%x.', double(v))];
  elseif (isnumeric(v) || islogical(v)) && isscalar(v) && isreal(v)
    s = ['n' sprintf('%.17g', double(v))];
  else
    s = ['o' class(v) '.' sprintf('%dx', size(v))];
  end
end
