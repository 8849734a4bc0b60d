import Testing

/// End-to-end tests against a real server on 127.0.0.1. They run one at a time so that the timing
/// measurements of the streaming tests are not shared with other servers' load.
@Suite(.serialized) struct ServerTests {}
