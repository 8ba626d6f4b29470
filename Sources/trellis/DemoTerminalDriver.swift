import Foundation
import TrellisClient
import TrellisProtocol

/// The demo's steps on the terminal viewer's loop: each frame, the requests due go out on the
/// viewer's connection (the server takes them in order), a new step's caption goes on the
/// viewer's top line, and a refused request has the choreography count the session again.
final class DemoTerminalDriver {
    private(set) var player: DemoPlayer

    init(_ player: DemoPlayer) { self.player = player }

    func tick(_ viewer: TerminalViewer) {
        let due = player.due(at: demoClock())
        if due.finished {
            viewer.stop()
            return
        }
        if let caption = due.caption {
            viewer.setCaption(caption)
            // A step that shows the physics turns the debug layer on, the next one off again.
            viewer.setDebugLayer(player.step?.debugLayer ?? false)
        }
        for (request, params) in due.requests {
            viewer.call(request.method, params) { [self] result in
                switch result {
                case .success(let reply):
                    player.keep(request, reply: reply)
                case .failure(let error):
                    viewer.setNote("refused: \(error)")
                    resynchronize(viewer)
                }
            }
        }
    }

    /// Someone else changed the session: its items and layout, as the server has them.
    private func resynchronize(_ viewer: TerminalViewer) {
        viewer.call("session.info", ["session": .string(player.choreography.session)]) { [self] info in
            if case .success(let value) = info, let items = value["items"]?.numberValue {
                player.resynchronize(itemCount: Int(items), layout: value["layout"]?.stringValue)
            }
        }
    }
}
