function out = subsref(s, idx)
% s(k) is a string of those elements; s{k} is the text itself.
  switch idx(1).type
    case '()'
      out = s;
      out.texts = s.texts(idx(1).subs{:});
    case '{}'
      out = s.texts{idx(1).subs{:}};
    otherwise
      error('string: no field %s', idx(1).subs);
  end
  if numel(idx) > 1
    out = subsref(out, idx(2:end));
  end
end
