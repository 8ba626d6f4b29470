import Foundation
import TrellisCore
import TrellisProtocol

/// A client of trellis-web in a process of its own, as the test's own user or, through
/// runuser(1), as another local user (`nobody`): what issue 24 found trellis-web letting in. One
/// GET, or a WebSocket handshake that, when upgraded, reads the attach reply and then sends each
/// request and reads until its reply (a page's script, written by someone who means harm). It is
/// python3 rather than this test process because only a process can run as another user.
enum LocalClient {
    /// What came back: the status (101 for an upgrade), the head, the body of a refusal or a
    /// plain GET, and the WebSocket messages (the attach reply first).
    struct Reply: Sendable {
        var status: Int
        var head: String
        var body: String
        var messages: [JSONValue]
    }

    /// The user whose requests trellis-web must refuse.
    static let otherUser = "nobody"

    /// runuser switches users only for root.
    static let runuser = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"].first(where: FileManager.default.isExecutableFile)
    /// A python3 outside any home directory, so `nobody` can run it too.
    static let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile)

    /// Whether the tests acting as another local user can run here.
    static var canActAsOtherUser: Bool { geteuid() == 0 && runuser != nil && python != nil }

    /// A GET of `path` (a WebSocket handshake when `upgrade`) on 127.0.0.1:`port`, with the
    /// extra header lines `headers`; `requests` (JSON texts, each with an id) go over the
    /// WebSocket once it is attached. As `otherUser` when `asOtherUser`.
    static func run(
        port: Int, path: String, upgrade: Bool = false, headers: [String] = [], requests: [String] = [], asOtherUser: Bool
    ) async throws -> Reply {
        guard let python else { throw WebTestFailure("no python3 in /usr/bin or /usr/local/bin") }
        let arguments = [python, "-c", script, String(port), path, upgrade ? "upgrade" : "get", JSONWriter.string(.array(headers.map(JSONValue.string)))]
            + requests
        let command: [String]
        if asOtherUser {
            guard let runuser, geteuid() == 0 else { throw WebTestFailure("acting as \(otherUser) needs root and runuser") }
            command = [runuser, "-u", otherUser, "--"] + arguments
        } else {
            command = arguments
        }
        let finished = try await ProgramRun.run(command)
        guard let parsed = try? JSONParser.parse(finished.stdout) else {
            throw WebTestFailure("the client printed no result (exit \(finished.status)): \(finished.stdout) \(finished.stderr)")
        }
        return Reply(status: Int(parsed["status"]?.numberValue ?? 0), head: parsed["head"]?.stringValue ?? "",
                     body: parsed["body"]?.stringValue ?? "", messages: parsed["messages"]?.arrayValue ?? [])
    }

    /// argv: port, path, get|upgrade, header lines as a JSON array, then the requests. Prints
    /// one JSON object. Server frames are single frames (trellis-web sends a message below 1 MB
    /// in one), so fragments are not joined.
    static let script = #"""
    import base64, json, os, socket, sys
    port, path, mode, extra = int(sys.argv[1]), sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
    requests = sys.argv[5:]
    s = socket.create_connection(('127.0.0.1', port), timeout=10)
    lines = ['GET %s HTTP/1.1' % path, 'Host: 127.0.0.1:%d' % port] + extra
    if mode == 'upgrade':
        lines += ['Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Version: 13',
                  'Sec-WebSocket-Key: ' + base64.b64encode(os.urandom(16)).decode()]
    else:
        lines += ['Connection: close']
    s.sendall(('\r\n'.join(lines) + '\r\n\r\n').encode())
    data = b''
    def more():
        global data
        chunk = s.recv(65536)
        if not chunk:
            raise EOFError()
        data += chunk
    def take(n):
        global data
        while len(data) < n:
            more()
        out, data = data[:n], data[n:]
        return out
    try:
        while b'\r\n\r\n' not in data:
            more()
    except (EOFError, OSError):
        pass
    head, _, data = data.partition(b'\r\n\r\n')
    words = head.split(b' ')
    status = int(words[1]) if len(words) > 1 and words[1].isdigit() else 0
    result = {'status': status, 'head': head.decode('latin-1'), 'body': '', 'messages': []}
    if status != 101:
        try:
            while True:
                more()
        except (EOFError, OSError):
            pass
        result['body'] = data.decode('utf-8', 'replace')
    else:
        def message():
            while True:
                b0, b1 = take(2)
                n = b1 & 127
                if n == 126:
                    n = int.from_bytes(take(2), 'big')
                elif n == 127:
                    n = int.from_bytes(take(8), 'big')
                payload = take(n)
                if b0 & 15 == 8:
                    return None
                if b0 & 15 == 1:
                    return json.loads(payload)
        def send(text):
            payload, mask = text.encode(), os.urandom(4)
            n = len(payload)
            size = bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, 'big')
            s.sendall(bytes([0x81]) + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        try:
            first = message()
            if first is not None:
                result['messages'].append(first)
                for request in requests:
                    send(request)
                    wanted = json.loads(request)['id']
                    while True:
                        m = message()
                        if m is None:
                            break
                        result['messages'].append(m)
                        if m.get('id') == wanted:
                            break
        except (EOFError, OSError) as e:
            result['error'] = str(e)
    print(json.dumps(result))
    """#
}
