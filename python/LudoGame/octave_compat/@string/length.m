function n = length(s)
  if isempty(s.texts)
    n = 0;
  else
    n = max(size(s.texts));
  end
end
