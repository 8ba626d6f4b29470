import TrellisCore
import TrellisProtocol

/// Work a request's handler left for later loop turns (a long `clock.advance` over restless
/// physics), taken a budget at a time so that no request holds the loop past
/// `requestBudgetMilliseconds`. Until it is done the request is not answered nor journaled,
/// and every other request that names its session waits (`PendingRequest`).
struct DeferredWork {
    let session: Session
    /// Takes more of the work while `more()` says so (at least one step); the request's result
    /// once it is done, nil while it is not.
    let step: (Session, () -> Bool) -> JSONValue?
}
