function c = char(s)
% The texts as a char matrix, one a row (in column-major order), padded with spaces.
  if isempty(s.texts)
    c = '';
  else
    c = char(s.texts(:));
  end
end
