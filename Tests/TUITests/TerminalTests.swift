import Testing

/// Every test that drives `linnet` in a real terminal under tmux. They run one at a time: each
/// starts the reader (and often a simulator), and on two cores several at once starve the
/// rest of the suite.
@Suite(.serialized) enum TerminalTests {}
