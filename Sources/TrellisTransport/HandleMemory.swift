import CLibUV

/// Memory for libuv handles, freed only in libuv's close callback, never while libuv may still touch it.
enum HandleMemory {
    static func allocate<T>(_ type: uv_handle_type, as: T.Type) -> UnsafeMutablePointer<T> {
        UnsafeMutableRawPointer.allocate(byteCount: uv_handle_size(type), alignment: 16).bindMemory(to: T.self, capacity: 1)
    }

    /// Closes `handle` and frees it once libuv is done with it. A handle already closing was
    /// closed by `EventLoop.close` (every handle left at the end, with no callback): it is left
    /// as it is, as before these types existed.
    static func close<T>(_ handle: UnsafeMutablePointer<T>) {
        let generic = UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)
        guard uv_is_closing(generic) == 0 else { return }
        uv_close(generic) { $0.map { UnsafeMutableRawPointer($0).deallocate() } }
    }
}
