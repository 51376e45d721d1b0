function e = isempty(s)
  e = isempty(s.texts);
end
