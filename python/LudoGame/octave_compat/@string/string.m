function s = string(x)
% LudoGame's stand-in for MATLAB's string array (Octave has none): a column or row of
% texts. Covers what coursework AIs do with it: string([]) (empty), string(numbers)
% (each number as text), string(char rows) / string(cellstr), element assignment
% s(k) = 'ab' and s(i, j) = 'XX', indexing, transpose, numel/length/size, isempty,
% and char(s) (a padded char matrix, one text a row).
  if nargin == 0 || (isnumeric(x) && isempty(x))
    texts = cell(0, 0);
  elseif isa(x, 'string')
    s = x;
    return;
  elseif ischar(x)
    if isempty(x)
      texts = {''};
    else
      texts = cellstr(x);
    end
  elseif iscellstr(x)
    texts = x;
  elseif isnumeric(x) || islogical(x)
    texts = arrayfun(@(v) num2str(v), x, 'UniformOutput', false);
  else
    error('string: cannot convert a %s to a string', class(x));
  end
  s = class(struct('texts', {texts}), 'string');
end
