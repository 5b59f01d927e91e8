"""`harvestsite.Restartable`: a loopback site stopped and started again on the same port."""
from __future__ import annotations

from harvestsite import Page, Restartable


def test_restartable_refuses_while_stopped_and_answers_again_on_the_same_port() -> None:
    import socket

    with Restartable({"/x": Page(200, "<html>x</html>")}) as server:
        port = server.port
        server.stop()
        with socket.socket() as sock:
            assert sock.connect_ex(("127.0.0.1", port)) != 0
        server.start()
        assert server.port == port
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
