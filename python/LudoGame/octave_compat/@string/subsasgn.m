function s = subsasgn(s, idx, value)
% s(k) = text, s(i, j) = text: each indexed element becomes the whole text.
  if ~strcmp(idx(1).type, '()') || numel(idx) > 1
    error('string: only s(k) = text assignments are supported');
  end
  if isa(value, 'string')
    value = value.texts;
  elseif ischar(value)
    value = {value};
  elseif isnumeric(value) && isempty(value)
    texts = s.texts;
    texts(idx(1).subs{:}) = [];
    s.texts = texts;
    return;
  elseif isnumeric(value) || islogical(value)
    value = arrayfun(@(v) num2str(v), value, 'UniformOutput', false);
  end
  texts = s.texts;
  texts(idx(1).subs{:}) = value;
  empty = cellfun(@(t) isnumeric(t) && isempty(t), texts);
  texts(empty) = {''};
  s.texts = texts;
end
