function s = transpose(s)
  s.texts = s.texts.';
end
