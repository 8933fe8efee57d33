// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

/**
 * @title LogAnchorRegistry
 * @notice Anchors one transparency log (Hasta's RFC 6962 log, decision 009) on an EVM chain: the owner writes
 * the root of a signed checkpoint and its tree size; the registry keeps only the latest pair, refuses a tree
 * that does not grow and emits `Anchored` for each, so every anchor stays findable in the chain's receipts.
 * Decision 015 explains why it is this small.
 */
contract LogAnchorRegistry {
    /// @notice keccak256 of the log's origin (its checkpoints' first line, e.g. "hasta.example/log").
    bytes32 public immutable logId;
    /// @notice The only account that may anchor: the log operator's key.
    address public owner;
    /// @notice The latest anchored tree size; shares a storage slot with `owner`.
    uint64 public treeSize;
    /// @notice The RFC 6962 root of the latest anchored tree.
    bytes32 public root;

    /// @notice A checkpoint's tree was anchored. The size is indexed so a verifier can look an anchor up by it.
    event Anchored(bytes32 root, uint64 indexed treeSize);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    error NotOwner(address caller);
    error TreeNotGrowing(uint64 lastTreeSize, uint64 treeSize);
    error ZeroOwner();

    constructor(bytes32 logId_) {
        logId = logId_;
        owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    /// @notice Anchors the tree of `newTreeSize` entries whose root is `newRoot`; the size must grow.
    function anchor(bytes32 newRoot, uint64 newTreeSize) external {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        uint64 last = treeSize;
        if (newTreeSize <= last) revert TreeNotGrowing(last, newTreeSize);
        treeSize = newTreeSize;
        root = newRoot;
        emit Anchored(newRoot, newTreeSize);
    }

    /// @notice The latest anchored root and tree size (zero and 0 before the first anchor).
    function latest() external view returns (bytes32, uint64) {
        return (root, treeSize);
    }

    /// @notice Hands anchoring to another key (a rotation); the old key can no longer anchor.
    function transferOwnership(address newOwner) external {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        if (newOwner == address(0)) revert ZeroOwner();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }
}
