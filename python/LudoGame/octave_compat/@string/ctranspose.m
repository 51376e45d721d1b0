function s = ctranspose(s)
  s.texts = s.texts.';
end
