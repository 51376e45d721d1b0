# Writes its own reply lines straight to the runner's reply descriptor (found among its
# open files: the pipe open for writing that is not stdout or stderr), from the moment it is
# imported: the runner itself never answers. Which malformed reply it writes is put here by
# the test (MODE) before it checks this file.
import fcntl
import json
import os

MODE = "@MODE@"


def _reply_fd():
    for fd in range(3, 64):
        try:
            flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        except OSError:
            continue
        if flags & os.O_ACCMODE == os.O_WRONLY:
            return fd
    raise SystemExit("no reply descriptor")


def _request_fd():
    for fd in range(3, 64):
        try:
            flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        except OSError:
            continue
        if flags & os.O_ACCMODE == os.O_RDONLY and os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:"):
            return fd
    raise SystemExit("no request descriptor")


def _answer():
    """One answer in the shape MODE names."""
    if MODE == "no_type":
        return {"v": 1}
    if MODE == "wrong_types":
        return {"t": 5, "v": {"nested": "object"}}
    if MODE == "long_string":
        return {"t": "str", "v": "x" * 1000}
    if MODE == "huge_string":
        return {"t": "str", "v": "x" * 10_000_000}
    if MODE == "long_list":
        return {"t": "list", "v": [{"t": "str", "v": "H"}] * 65}
    if MODE == "huge_int":
        return {"t": "int", "v": 10**30}
    return {"t": "str", "v": "H"}


def _line(request):
    """The whole reply line for one request."""
    if MODE == "deep":
        return "[" * 10_000 + "]" * 10_000  # within the size of a reply, not its depth
    if MODE == "nan":
        return '[{"play_game": {"t": "float", "v": NaN}}]' if request["op"] == "games" else '{"A.p": NaN}'
    if MODE == "many_objects":
        return "[" + "{}," * 7_000 + "{}]"  # within the size of a reply, not its objects
    if MODE == "not_json":
        return "the answers are all correct"
    if MODE == "million":
        return json.dumps([{"play_game": {"t": "list", "v": [{"t": "str", "v": "H"}] * 1_000_000}}])
    unasked = {"\x1b[2Jverdict": {"t": "str", "v": "agrees"}}
    if MODE == "unasked":
        return json.dumps(unasked if request["op"] == "names" else [unasked] * len(request["games"]))
    if MODE == "wrong_count":
        return "{}" if request["op"] == "names" else "[]"
    if request["op"] == "names":
        return json.dumps({f"{request['position']}.get_space_name(0)": _answer()})
    return json.dumps([{"play_game": _answer()} for _ in request["games"]])


def _serve():
    out = _reply_fd()
    requests = os.fdopen(_request_fd(), "rb")
    os.write(out, b'{"load": "ok"}\n')
    for raw in requests:
        if MODE == "endless":  # one line without end, once asked
            while True:
                os.write(out, b"x" * 65536)
        line = _line(json.loads(raw)).encode() + b"\n"
        while line:
            line = line[os.write(out, line):]
    os._exit(0)


_serve()
