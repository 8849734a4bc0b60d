internal import CMicroHTTPD

/// The C functions libmicrohttpd calls. Each finds its Swift object through the context pointer:
/// the `ConnectionHandler` (kept alive by the server until the daemon has stopped), the request's
/// `RequestContext` (retained from the URI callback to the completed callback), or the
/// `ResponseStream` or `FileSlice` (retained while its response exists).
extension ConnectionHandler {
    /// Called first for every request, with the raw request-target: creates its context.
    static let uriCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
        _, uri, _ in
        let context = RequestContext(rawTarget: uri.map { String(cString: $0) } ?? "")
        return Unmanaged.passRetained(context).toOpaque()
    }

    static let accessCallback: MHD_AccessHandlerCallback = {
        handlerPointer, connection, _, method, _, upload, uploadSize, contextPointer in
        guard let handlerPointer, let connection, let method, let uploadSize,
              let contextPointer = contextPointer?.pointee
        else { return .NO }
        let handler = Unmanaged<ConnectionHandler>.fromOpaque(handlerPointer).takeUnretainedValue()
        let context = Unmanaged<RequestContext>.fromOpaque(contextPointer).takeUnretainedValue()
        return handler.handle(
            connection, context, method: HTTPMethod(rawValue: String(cString: method)), upload: upload, uploadSize: uploadSize)
    }

    /// Called when a request ends, answered or not (the client went away): frees its context, and
    /// the connection's next request is due.
    static let completedCallback: MHD_RequestCompletedCallback = { handlerPointer, connection, contextPointer, _ in
        if let handlerPointer, let connection {
            Unmanaged<ConnectionHandler>.fromOpaque(handlerPointer).takeUnretainedValue().connectionGuard.answered(connection)
        }
        guard let pointer = contextPointer?.pointee else { return }
        Unmanaged<RequestContext>.fromOpaque(pointer).release()
        contextPointer?.pointee = nil
    }

    /// Called when a connection opens and when it closes (before its socket is closed).
    static let connectionCallback: MHD_NotifyConnectionCallback = { handlerPointer, connection, _, event in
        guard let handlerPointer, let connection else { return }
        let connectionGuard = Unmanaged<ConnectionHandler>.fromOpaque(handlerPointer).takeUnretainedValue().connectionGuard
        switch event {
        case .CONNECTION_NOTIFY_STARTED: connectionGuard.opened(connection, socket: cmhd_connection_socket(connection))
        case .CONNECTION_NOTIFY_CLOSED: connectionGuard.forget(connection)
        @unknown default: break
        }
    }

    /// Fills libmicrohttpd's buffer from a stream, blocking this connection's thread until a part comes.
    static let readCallback: MHD_ContentReaderCallback = { streamPointer, _, buffer, capacity in
        guard let streamPointer, let buffer else { return cmhd_reader_end_of_stream }
        let stream = Unmanaged<ResponseStream>.fromOpaque(streamPointer).takeUnretainedValue()
        guard let count = stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity)) else {
            return cmhd_reader_end_of_stream
        }
        return count
    }

    /// Called when a stream's response is released (sent to the end, or the client went away):
    /// closes the stream so its producer stops and its queue is freed.
    static let freeCallback: MHD_ContentReaderFreeCallback = { streamPointer in
        guard let streamPointer else { return }
        Unmanaged<ResponseStream>.fromOpaque(streamPointer).takeRetainedValue().close()
    }

    /// Fills libmicrohttpd's buffer from a file slice at the body position `position`.
    static let fileReadCallback: MHD_ContentReaderCallback = { slicePointer, position, buffer, capacity in
        guard let slicePointer, let buffer else { return cmhd_reader_end_with_error }
        let slice = Unmanaged<FileSlice>.fromOpaque(slicePointer).takeUnretainedValue()
        guard let count = slice.read(at: Int64(position), into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity)), count > 0
        else { return cmhd_reader_end_with_error }
        return count
    }

    /// Called when a file's response is released: closes the file.
    static let fileFreeCallback: MHD_ContentReaderFreeCallback = { slicePointer in
        guard let slicePointer else { return }
        Unmanaged<FileSlice>.fromOpaque(slicePointer).release()
    }

    /// Adds one header or cookie to the `HTTPHeaders` that `context` points to.
    static let collectValue: MHD_KeyValueIterator = { context, _, key, value in
        guard let context, let key else { return .YES }
        context.assumingMemoryBound(to: HTTPHeaders.self).pointee.add(String(cString: key), value.map { String(cString: $0) } ?? "")
        return .YES
    }
}
