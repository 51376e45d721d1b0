function disp(s)
  disp(s.texts);
end
