"""A TCP proxy for the floor tests: 127.0.0.1:<port> forwards to a server, and the test can cut
the network: every connection through it reset at once (SO_LINGER 0: the peer sees a reset, as
when a switch or a firewall drops the session) and new ones refused until it is restored.
Python's standard library only; a thread per direction of each connection."""
import socket
import struct
import threading


class TcpCutProxy:
    def __init__(self, upstream_port: int, upstream_host: str = "127.0.0.1"):
        self.upstream = (upstream_host, upstream_port)
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.pairs = []
        self.cut_off = False
        self.connections = 0  # accepted and forwarded
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                refuse = self.cut_off
            if refuse:
                self._reset(client)
                continue
            try:
                server = socket.create_connection(self.upstream, timeout=5)
                server.settimeout(None)
            except OSError:
                self._reset(client)
                continue
            with self.lock:
                self.pairs.append((client, server))
                self.connections += 1
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client), daemon=True).start()

    @staticmethod
    def _pump(source, sink):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    @staticmethod
    def _reset(sock):
        # Linger 0: the close sends a reset. shutdown() first wakes the pump thread blocked in
        # recv() on it (a close alone would wait for that recv to return).
        for step in (lambda: sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)),
                     lambda: sock.shutdown(socket.SHUT_RDWR), sock.close):
            try:
                step()
            except OSError:
                pass

    def cut(self):
        """Every connection reset now; new ones refused until restore()."""
        with self.lock:
            self.cut_off = True
            pairs, self.pairs = self.pairs, []
        for client, server in pairs:
            self._reset(client)
            self._reset(server)

    def restore(self):
        with self.lock:
            self.cut_off = False

    def close(self):
        self.closed = True
        self.cut()
        self.listener.close()
