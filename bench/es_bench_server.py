"""A stand-in Elasticsearch for bench/bench-collectdes.sh: every search
scrolls through PAGES copies of one recorded page (HITS hits), answered
from bytes made once, then an empty page; DELETE frees the scroll.  Not
a test server (tests/http_server.c is): it neither filters nor fails."""
import http.server, json, sys

page_file, pages, port_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
hits = json.load(open(page_file))
body = json.dumps({"_scroll_id": "bench", "hits": {"hits": hits}}).encode()
empty = json.dumps({"_scroll_id": "bench", "hits": {"hits": []}}).encode()
left = [0]

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args):
        pass
    def answer(self, data):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if "/_search?" in self.path:
            left[0] = pages
        if left[0] > 0:
            left[0] -= 1
            self.answer(body)
        else:
            self.answer(empty)
    def do_DELETE(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.answer(b'{"succeeded": true, "num_freed": 1}')

server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
open(port_file, "w").write(str(server.server_address[1]))
server.serve_forever()
