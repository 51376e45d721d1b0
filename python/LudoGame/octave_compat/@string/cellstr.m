function c = cellstr(s)
  c = s.texts;
end
