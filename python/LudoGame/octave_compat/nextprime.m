function p = nextprime(n)
% LudoGame's stand-in for MATLAB's nextprime (Symbolic Math Toolbox): the smallest prime
% >= n, for each element of a numeric array.
  p = zeros(size(n));
  for k = 1:numel(n)
    q = max(2, ceil(double(n(k))));
    while ~isprime(q)
      q = q + 1;
    end
    p(k) = q;
  end
end
