/**
 * The anchoring registry on an EVM chain through viem (decision 015): reads the latest anchored tree, signs
 * and sends `anchor(root, treeSize)` and reads back what the chain recorded. Signing and sending are
 * separate steps so the worker can store a transaction before it leaves the process.
 */
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  keccak256,
  parseEventLogs,
  toBytes,
  toHex,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { celo, celoSepolia, polygon, polygonAmoy } from 'viem/chains';
import type { AnchorChainName } from './chains';
import { logAnchorRegistryArtifact } from './log-anchor-registry-artifact';

/** viem's definition of each chain ANCHOR_CHAIN names. */
export const ANCHOR_CHAINS: Record<AnchorChainName, Chain> = { polygon, polygonAmoy, celo, celoSepolia };

const abi = logAnchorRegistryArtifact.abi;
/** The contract stores sizes as uint64. */
const MAX_TREE_SIZE = 2n ** 64n - 1n;
const DEFAULT_POLLING_INTERVAL_MS = 1_000;

/** The registry's id for a log: keccak256 of its origin, the first line of its checkpoints. */
export function logIdOf(origin: string): Hex {
  return keccak256(toBytes(origin));
}

/** The registry refused a call (its custom error: NotOwner, TreeNotGrowing); nothing was sent. */
export class RegistryRefusal extends Error {
  constructor(
    readonly errorName: string,
    readonly args: readonly unknown[],
  ) {
    super(`the registry refuses: ${errorName}(${args.map(String).join(', ')})`);
    this.name = 'RegistryRefusal';
  }
}

export interface RegistryState {
  /** 0x-prefixed bytes32, lower case; all zeros before the first anchor. */
  root: Hex;
  treeSize: number;
}

export interface SignedAnchor {
  txHash: Hex;
  /** The signed transaction, ready for eth_sendRawTransaction (again, after a crash). */
  rawTransaction: Hex;
  nonce: number;
}

export interface MinedAnchor {
  status: 'success' | 'reverted';
  blockNumber: number;
  blockHash: Hex;
  gasUsed: bigint;
  /** Calldata bytes of the transaction: selector, root and size. */
  calldataBytes: number;
  /** The Anchored events the registry emitted in this transaction (one for a successful anchor). */
  anchored: RegistryState[];
}

export interface EvmRegistryOptions {
  /** The chain's name as receipts show it (ANCHOR_CHAIN, or e.g. "hardhat" in tests). */
  chainName: string;
  chain: Chain;
  transport: Transport;
  /** The owner's key: 0x and 64 hex digits. */
  privateKey: Hex;
  contract: Address;
  pollingIntervalMs?: number;
}

function checkTreeSize(treeSize: number): bigint {
  if (!Number.isSafeInteger(treeSize) || treeSize <= 0 || BigInt(treeSize) > MAX_TREE_SIZE) {
    throw new Error(`tree size ${treeSize} cannot be anchored`);
  }
  return BigInt(treeSize);
}

function checkRoot(root: Uint8Array): Hex {
  if (root.length !== 32) throw new Error(`a root is 32 bytes, not ${root.length}`);
  return toHex(root);
}

export class EvmAnchorRegistry {
  readonly chainName: string;
  readonly chainId: number;
  /** Lower-case 0x address, as stored and compared. */
  readonly contract: Address;
  readonly account: PrivateKeyAccount;
  readonly #public: PublicClient<Transport, Chain>;
  readonly #wallet: WalletClient<Transport, Chain, PrivateKeyAccount>;

  constructor(options: EvmRegistryOptions) {
    this.chainName = options.chainName;
    this.chainId = options.chain.id;
    this.contract = getAddress(options.contract).toLowerCase() as Address;
    this.account = privateKeyToAccount(options.privateKey);
    const pollingInterval = options.pollingIntervalMs ?? DEFAULT_POLLING_INTERVAL_MS;
    this.#public = createPublicClient({
      chain: options.chain,
      transport: options.transport,
      pollingInterval,
    });
    this.#wallet = createWalletClient({
      chain: options.chain,
      transport: options.transport,
      account: this.account,
      pollingInterval,
    });
  }

  /** Deploys a registry for the log `origin`, owned by `privateKey`'s account; returns its address. */
  static async deploy(options: Omit<EvmRegistryOptions, 'contract'> & { origin: string }): Promise<Address> {
    const account = privateKeyToAccount(options.privateKey);
    const wallet = createWalletClient({ chain: options.chain, transport: options.transport, account });
    const client = createPublicClient({
      chain: options.chain,
      transport: options.transport,
      pollingInterval: options.pollingIntervalMs ?? DEFAULT_POLLING_INTERVAL_MS,
    });
    const hash = await wallet.deployContract({
      abi,
      bytecode: logAnchorRegistryArtifact.bytecode,
      args: [logIdOf(options.origin)],
    });
    const receipt = await client.waitForTransactionReceipt({ hash, timeout: 5 * 60_000 });
    if (receipt.status !== 'success' || !receipt.contractAddress) {
      throw new Error(`deploying the registry failed in transaction ${hash}`);
    }
    return receipt.contractAddress.toLowerCase() as Address;
  }

  async latest(): Promise<RegistryState> {
    const [root, treeSize] = await this.#public.readContract({
      address: this.contract,
      abi,
      functionName: 'latest',
    });
    if (treeSize > BigInt(Number.MAX_SAFE_INTEGER))
      throw new Error(`registry tree size ${treeSize} is too large`);
    return { root: root.toLowerCase() as Hex, treeSize: Number(treeSize) };
  }

  /**
   * What is wrong with this configuration, if anything: the RPC serves another chain, no registry at the
   * address, a registry of another log, or one our key does not own. Network failures throw.
   */
  async setupProblems(origin: string): Promise<string[]> {
    const chainId = await this.#public.getChainId();
    if (chainId !== this.chainId) {
      return [`the RPC serves chain id ${chainId}, not ${this.chainName} (${this.chainId})`];
    }
    const code = await this.#public.getCode({ address: this.contract });
    if (code === undefined || code === '0x') return [`no contract at ${this.contract} on ${this.chainName}`];
    const problems: string[] = [];
    const [logId, owner] = await Promise.all([
      this.#public.readContract({ address: this.contract, abi, functionName: 'logId' }),
      this.#public.readContract({ address: this.contract, abi, functionName: 'owner' }),
    ]);
    if (logId.toLowerCase() !== logIdOf(origin)) {
      problems.push(
        `the registry at ${this.contract} anchors another log (logId ${logId}, not that of ${origin})`,
      );
    }
    if (owner.toLowerCase() !== this.account.address.toLowerCase()) {
      problems.push(
        `the registry at ${this.contract} is owned by ${owner}, not by ANCHOR_PRIVATE_KEY's ${this.account.address}`,
      );
    }
    return problems;
  }

  /**
   * Signs `anchor(root, treeSize)` without sending it. The call is simulated against the chain first, so one
   * the registry would refuse (not the owner, a tree that does not grow) throws a RegistryRefusal here and
   * costs nothing.
   */
  async signAnchor(root: Uint8Array, treeSize: number): Promise<SignedAnchor> {
    const args = [checkRoot(root), checkTreeSize(treeSize)] as const;
    try {
      await this.#public.simulateContract({
        account: this.account,
        address: this.contract,
        abi,
        functionName: 'anchor',
        args,
      });
    } catch (error) {
      const reverted =
        error instanceof BaseError
          ? error.walk((cause) => cause instanceof ContractFunctionRevertedError)
          : null;
      if (reverted instanceof ContractFunctionRevertedError && reverted.data) {
        throw new RegistryRefusal(reverted.data.errorName, reverted.data.args ?? []);
      }
      throw error;
    }
    const request = await this.#wallet.prepareTransactionRequest({
      to: this.contract,
      data: encodeFunctionData({ abi, functionName: 'anchor', args }),
    });
    const rawTransaction = await this.#wallet.signTransaction(request);
    return { txHash: keccak256(rawTransaction), rawTransaction, nonce: request.nonce };
  }

  /** Sends a signed transaction; sending one the node already has is not an error. */
  async broadcast(signed: Pick<SignedAnchor, 'txHash' | 'rawTransaction'>): Promise<void> {
    try {
      await this.#wallet.sendRawTransaction({ serializedTransaction: signed.rawTransaction });
    } catch (error) {
      const known = await this.#public.getTransaction({ hash: signed.txHash }).catch(() => null);
      if (!known) throw error;
    }
  }

  /** The mined transaction and the anchors it recorded; null while it is not mined. */
  async mined(txHash: Hex): Promise<MinedAnchor | null> {
    const receipt = await this.#public.getTransactionReceipt({ hash: txHash }).catch((error: unknown) => {
      if (error instanceof Error && error.name === 'TransactionReceiptNotFoundError') return null;
      throw error;
    });
    if (receipt === null) return null;
    return this.#minedFrom(receipt);
  }

  /** Waits (polling, at most `timeoutMs`) for the transaction to be mined; null when it was not. */
  async waitForMined(txHash: Hex, timeoutMs: number): Promise<MinedAnchor | null> {
    try {
      const receipt = await this.#public.waitForTransactionReceipt({ hash: txHash, timeout: timeoutMs });
      return await this.#minedFrom(receipt);
    } catch (error) {
      if (error instanceof Error && error.name === 'WaitForTransactionReceiptTimeoutError') return null;
      throw error;
    }
  }

  /** The account's next nonce as the chain has mined it (not counting pending transactions). */
  async minedNonce(): Promise<number> {
    return this.#public.getTransactionCount({ address: this.account.address, blockTag: 'latest' });
  }

  /** Signs, sends and waits: one anchor, start to end (operations and benchmarks; the worker stores first). */
  async anchor(
    root: Uint8Array,
    treeSize: number,
    timeoutMs = 5 * 60_000,
  ): Promise<SignedAnchor & MinedAnchor> {
    const signed = await this.signAnchor(root, treeSize);
    await this.broadcast(signed);
    const mined = await this.waitForMined(signed.txHash, timeoutMs);
    if (!mined) throw new Error(`anchor transaction ${signed.txHash} was not mined within ${timeoutMs} ms`);
    return { ...signed, ...mined };
  }

  async #minedFrom(receipt: {
    status: 'success' | 'reverted';
    blockNumber: bigint;
    blockHash: Hex;
    gasUsed: bigint;
    transactionHash: Hex;
    logs: Parameters<typeof parseEventLogs>[0]['logs'];
  }): Promise<MinedAnchor> {
    const transaction = await this.#public.getTransaction({ hash: receipt.transactionHash });
    const anchored = parseEventLogs({ abi, eventName: 'Anchored', logs: receipt.logs })
      .filter((log) => log.address.toLowerCase() === this.contract)
      .map((log) => ({ root: log.args.root.toLowerCase() as Hex, treeSize: Number(log.args.treeSize) }));
    return {
      status: receipt.status,
      blockNumber: Number(receipt.blockNumber),
      blockHash: receipt.blockHash,
      gasUsed: receipt.gasUsed,
      calldataBytes: (transaction.input.length - 2) / 2,
      anchored,
    };
  }
}
