% LudoGame's Octave worker: plays one coursework AI for the Python referee.
%
% Started as: octave-cli ... ludogame_worker.m FD_IN FD_OUT TOKEN AI_DIR COMPAT_DIR NAME
% Requests come on FD_IN as blocks of 4096 bytes (Octave's stdio reads a pipe a block at
% a time, so a block is answered at once): 'ASK' then the player, the board (25
% characters, row by row), the cards A1 A2 B1 B2 and the side card (25 each) and the
% turns left; 'BYE' ends the worker. Each answer is one line on FD_OUT, led by TOKEN:
%   TOKEN OK <card> <moveFrom> <moveTo> <wDir>   each value encoded by ludogame_enc
%   TOKEN ERR <message as hex codes>             the AI raised an error
% The AI is called with feval (never eval of text); whatever it prints goes to stdout,
% which the referee discards, so it cannot corrupt the answers.
addpath(fileparts(mfilename('fullpath')));
ludogame_args = argv();
ludogame_args = ludogame_args(end-5:end);
ludogame_in = fopen(['/dev/fd/' ludogame_args{1}], 'r');
ludogame_out = fopen(['/dev/fd/' ludogame_args{2}], 'w');
ludogame_token = ludogame_args{3};
addpath(ludogame_args{4});
addpath(ludogame_args{5}, '-end');
ludogame_name = ludogame_args{6};
clear ludogame_args;
fprintf(ludogame_out, '%s READY\n', ludogame_token);
fflush(ludogame_out);
ludogame_serve(ludogame_in, ludogame_out, ludogame_token, ludogame_name);
