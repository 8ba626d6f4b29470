import TrellisCore
import TrellisProtocol

/// The sessions by name (`Server.sessions`): closing one tells its viewers and forgets it.
extension Server {
    /// Ends `session`: each viewer gets `session.closed` with `reason` and is detached.
    func close(_ session: Session, reason: String) {
        for viewer in session.viewers.values {
            notify("session.closed", .object(["session": .string(session.name), "reason": .string(reason)]), to: viewer.connection)
            clients[viewer.connection.id]?.viewing = nil
        }
        session.viewers.removeAll()
        sessions[session.name] = nil
    }
}
