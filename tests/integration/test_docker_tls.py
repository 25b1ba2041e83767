#!/usr/bin/env python3
"""The engine over tcp:// and tcp:// with TLS: a loopback proxy in front of the
topology's engine socket, once plain and once TLS with client certificates
from a test CA made here, as dockerd --tlsverify would demand them.
DOCKER_TLS_VERIFY + DOCKER_CERT_PATH (ca.pem, cert.pem, key.pem), DOCKER_TLS
(no verification), bare host:port, failures (wrong CA, no client cert) as
exit 3, and a build (chunked upload) through TLS.
Runs through tests/topology/with-env.sh (DOCKER_HOST, BYOC_BIN)."""
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import threading

BYOC = os.environ["BYOC_BIN"]
SRC = os.environ.get("BYOC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
ENGINE = os.environ["DOCKER_HOST"]
assert ENGINE.startswith("unix://"), ENGINE
SOCK = ENGINE[len("unix://"):]

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, file=sys.stderr)


def openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def make_ca(d, name):
    os.makedirs(d, exist_ok=True)
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca-key.pem", "-out", "ca.pem",
            "-days", "2", "-subj", f"/CN={name}", cwd=d)


def issue(d, ca_dir, name, ext):
    """Key + certificate signed by ca_dir's CA, with an extensions file body."""
    with open(os.path.join(d, f"{name}.ext"), "w") as f:
        f.write(ext)
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}-key.pem", "-out", f"{name}.csr",
            "-subj", f"/CN={name}", cwd=d)
    openssl("x509", "-req", "-in", f"{name}.csr", "-CA", os.path.join(ca_dir, "ca.pem"), "-CAkey",
            os.path.join(ca_dir, "ca-key.pem"), "-CAcreateserial", "-out", f"{name}.pem", "-days", "2",
            "-extfile", f"{name}.ext", cwd=d)


def pump(a, b):
    try:
        while True:
            data = a.recv(65536)
            if not data:
                break
            b.sendall(data)
    except OSError:
        pass
    finally:
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(listener, tls_ctx):
    while True:
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        def handle(conn=conn):
            try:
                c = tls_ctx.wrap_socket(conn, server_side=True) if tls_ctx else conn
            except (ssl.SSLError, OSError):
                conn.close()
                return
            up = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            up.connect(SOCK)
            t = threading.Thread(target=pump, args=(up, c), daemon=True)
            t.start()
            pump(c, up)
            t.join(timeout=60)
            c.close()
            up.close()
        threading.Thread(target=handle, daemon=True).start()


def proxy(tls_ctx):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    threading.Thread(target=serve, args=(s, tls_ctx), daemon=True).start()
    return s, s.getsockname()[1]


def byoc(env_over, *args):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOCKER_")}
    env.update(env_over)
    return subprocess.run([BYOC, *args], env=env, capture_output=True, timeout=300)


def main():
    tmp = tempfile.mkdtemp(prefix="byoc-tls-")
    try:
        ca, other, certs = (os.path.join(tmp, n) for n in ("ca", "other-ca", "certs"))
        make_ca(ca, "byoc test engine CA")
        make_ca(other, "some other CA")
        os.makedirs(certs)
        issue(certs, ca, "server", "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n")
        issue(certs, ca, "client", "extendedKeyUsage=clientAuth\n")
        good = os.path.join(tmp, "good")
        os.makedirs(good)
        shutil.copy(os.path.join(ca, "ca.pem"), good)
        shutil.copy(os.path.join(certs, "client.pem"), os.path.join(good, "cert.pem"))
        shutil.copy(os.path.join(certs, "client-key.pem"), os.path.join(good, "key.pem"))
        wrong_ca = os.path.join(tmp, "wrong-ca")
        shutil.copytree(good, wrong_ca)
        shutil.copy(os.path.join(other, "ca.pem"), wrong_ca)
        no_client = os.path.join(tmp, "no-client")
        os.makedirs(no_client)
        shutil.copy(os.path.join(ca, "ca.pem"), no_client)

        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(os.path.join(certs, "server.pem"), os.path.join(certs, "server-key.pem"))
        ctx.load_verify_locations(os.path.join(ca, "ca.pem"))
        ctx.verify_mode = ssl.CERT_REQUIRED
        tls_listener, tls_port = proxy(ctx)
        plain_listener, plain_port = proxy(None)

        tls = {"DOCKER_HOST": f"tcp://127.0.0.1:{tls_port}", "DOCKER_TLS_VERIFY": "1", "DOCKER_CERT_PATH": good}
        r = byoc(tls, "--json", "images")
        check(r.returncode == 0, f"images over TLS: {r.returncode} {r.stderr.decode()}")
        if r.returncode == 0:
            check("images" in json.loads(r.stdout), "images JSON over TLS")

        r = byoc(dict(tls, DOCKER_CERT_PATH=wrong_ca), "images")
        check(r.returncode == 3, f"wrong CA: exit {r.returncode}, want 3")
        check(b"no Docker engine at tcp://127.0.0.1" in r.stderr, f"wrong CA message: {r.stderr.decode()}")

        r = byoc(dict(tls, DOCKER_CERT_PATH=no_client), "images")
        check(r.returncode == 3, f"no client certificate: exit {r.returncode}, want 3")

        r = byoc(dict(tls, DOCKER_CERT_PATH=os.path.join(tmp, "missing")), "images")
        check(r.returncode == 3 and b"DOCKER_CERT_PATH" in r.stderr, f"missing ca.pem: {r.stderr.decode()}")

        # DOCKER_TLS without verification: the wrong CA does not matter, the client certificate is sent
        r = byoc({"DOCKER_HOST": f"tcp://127.0.0.1:{tls_port}", "DOCKER_TLS": "1", "DOCKER_CERT_PATH": wrong_ca},
                 "images")
        check(r.returncode == 0, f"DOCKER_TLS without verification: {r.returncode} {r.stderr.decode()}")

        # plain TCP, with and without the scheme; TLS settings absent
        for host in (f"tcp://127.0.0.1:{plain_port}", f"127.0.0.1:{plain_port}"):
            r = byoc({"DOCKER_HOST": host}, "images")
            check(r.returncode == 0, f"plain {host}: {r.returncode} {r.stderr.decode()}")
        # TLS spoken to a plain listener fails cleanly
        r = byoc(dict(tls, DOCKER_HOST=f"tcp://127.0.0.1:{plain_port}"), "images")
        check(r.returncode == 3, f"TLS to a plain port: exit {r.returncode}, want 3")

        # a build streams its context through TLS
        r = byoc(tls, "--json", "build", os.path.join(SRC, "tests/fixtures/contexts/buildargs"), "-t",
                 "byoc-itest/tls:1", "--network", "none", "--no-lint", "--build-arg", "WHO=tls")
        check(r.returncode == 0, f"build over TLS: {r.returncode} {r.stderr.decode()[-400:]}")
        if r.returncode == 0:
            check(json.loads(r.stdout)["tags"] == ["byoc-itest/tls:1"], "build over TLS: tags")
        subprocess.run([os.environ.get("BYOC_TEST_DOCKER_CLI", "/usr/bin/docker"), "rmi", "-f", "byoc-itest/tls:1"],
                       capture_output=True)
        tls_listener.close()
        plain_listener.close()
    finally:
        shutil.rmtree(tmp)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
