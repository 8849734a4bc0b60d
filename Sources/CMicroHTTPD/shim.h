#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

// libmicrohttpd for the HTTPServer module. Swift cannot call C variadic functions or use macros
// with casts, so the few the server needs are wrapped here under `cmhd_` names.

#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// MHD_SIZE_UNKNOWN: the body length of a streamed response, not known in advance.
static const uint64_t cmhd_size_unknown = MHD_SIZE_UNKNOWN;

/// MHD_CONTENT_READER_END_OF_STREAM: returned by a content reader when the body is complete.
static const ssize_t cmhd_reader_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;

/// MHD_CONTENT_READER_END_WITH_ERROR: returned by a content reader that cannot give the bytes it
/// promised; the connection is closed.
static const ssize_t cmhd_reader_end_with_error = MHD_CONTENT_READER_END_WITH_ERROR;

/// Starts a daemon bound to `address` (port 0 picks a free port) with the options the server
/// uses. `flags` are MHD_FLAG values; NULL is returned when the daemon cannot start (errno says why).
/// `per_address_limit` is MHD_OPTION_PER_IP_CONNECTION_LIMIT; `notify_connection` is called when
/// a connection opens and closes (MHD_OPTION_NOTIFY_CONNECTION).
static inline struct MHD_Daemon *cmhd_start_daemon(
    unsigned int flags, const struct sockaddr *address,
    unsigned int connection_limit, unsigned int per_address_limit, unsigned int connection_timeout_seconds,
    size_t connection_memory_limit, size_t thread_stack_size,
    MHD_AccessHandlerCallback handler, void *handler_context,
    void *(*uri_logger)(void *context, const char *uri, struct MHD_Connection *connection),
    void *uri_logger_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    MHD_NotifyConnectionCallback notify_connection, void *notify_connection_context)
{
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                            MHD_OPTION_THREAD_STACK_SIZE, thread_stack_size,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_logger, uri_logger_context,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_NOTIFY_CONNECTION, notify_connection, notify_connection_context,
                            MHD_OPTION_END);
}

/// The socket of `connection` (MHD_CONNECTION_INFO_CONNECTION_FD), or -1.
static inline int cmhd_connection_socket(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The port the daemon listens on (the one picked when it was started with port 0), or 0.
static inline uint16_t cmhd_bind_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The number of open client connections, streaming and idle keep-alive ones included.
static inline unsigned int cmhd_current_connections(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

/// Sets response flags (MHD_RF_…) through the variadic MHD_set_response_options.
static inline enum MHD_Result cmhd_set_response_flags(struct MHD_Response *response,
                                                      enum MHD_ResponseFlags flags)
{
    return MHD_set_response_options(response, flags, MHD_RO_END);
}

#endif
