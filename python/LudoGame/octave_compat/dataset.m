function d = dataset(varargin)
% LudoGame's stand-in for MATLAB's dataset (Statistics Toolbox, deprecated there): a
% struct with one field a variable, named after the variables passed (var1, var2, ...
% for expressions). Enough for AIs that build one to look at; no dataset methods.
  d = struct();
  for k = 1:nargin
    name = inputname(k, false);
    if isempty(name) || ~isvarname(name)
      name = sprintf('var%d', k);
    end
    d.(name) = varargin{k};
  end
end
