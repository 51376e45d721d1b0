function varargout = size(s, varargin)
  [varargout{1:max(nargout, 1)}] = size(s.texts, varargin{:});
end
