import NIOCore
import NIOEmbedded

extension EmbeddedChannel {
  /// An embedded channel with `handler`, connected as a client's connection is when the
  /// server's pipeline sees it.
  static func connected(with handler: some ChannelHandler) throws -> EmbeddedChannel {
    let channel = EmbeddedChannel()
    try channel.pipeline.syncOperations.addHandler(handler)
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    return channel
  }
}
