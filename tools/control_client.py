"""One request to pitlinkd's control socket (protocols/control/README.md): a JSON line out, the
reply line back; its `data`, or AssertionError with the reply when it was refused."""
import json
import socket


def control(path, **request):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(10)
        s.connect(path)
        s.sendall((json.dumps(dict(id=1, **request)) + "\n").encode())
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(1 << 20)
            if not chunk:
                break
            data += chunk
    reply = json.loads(data)
    assert reply["ok"], reply
    return reply["data"]
