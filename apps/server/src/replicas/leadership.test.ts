import { describe, expect, it } from 'vitest';
import type { DedicatedConnection } from '../db/database';
import { Leadership } from './leadership';

/** One database's advisory lock as connections see it: held by one connection until it ends. */
class FakeLockServer {
  holder: FakeConnection | null = null;
  nextPid = 100;

  connect = async (): Promise<DedicatedConnection> => new FakeConnection(this, (this.nextPid += 1));
}

class FakeConnection implements DedicatedConnection {
  #lost: ((error: Error) => void) | undefined;
  ended = false;

  constructor(
    private readonly server: FakeLockServer,
    readonly pid: number,
  ) {}

  async query<Row>(sql: string): Promise<Row[]> {
    if (this.ended) throw new Error('connection ended');
    if (sql.includes('pg_try_advisory_lock')) {
      if (this.server.holder === null) this.server.holder = this;
      return [{ locked: this.server.holder === this }] as Row[];
    }
    return [{}] as Row[];
  }

  onNotification(): void {}

  onLost(listener: (error: Error) => void): void {
    this.#lost = listener;
  }

  /** The server ends the connection (its process killed, the network cut): the lock is freed. */
  kill(): void {
    this.#end();
    this.#lost?.(new Error('terminated'));
  }

  async close(): Promise<void> {
    this.#end();
  }

  #end(): void {
    this.ended = true;
    if (this.server.holder === this) this.server.holder = null;
  }
}

async function until(condition: () => boolean): Promise<void> {
  for (let tries = 0; !condition(); tries += 1) {
    if (tries > 2_000) throw new Error(`never: ${condition.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function replica(server: FakeLockServer) {
  const state = { working: false, leads: 0 };
  const leadership = new Leadership(
    server.connect,
    {
      lead: () => {
        state.working = true;
        state.leads += 1;
      },
      follow: async () => {
        state.working = false;
      },
    },
    { retryEveryMs: 5, onError: () => {} },
  );
  return { leadership, state };
}

describe('leadership by an advisory lock', () => {
  it('elects one replica, and another once the leader’s connection is lost or it stops', async () => {
    const server = new FakeLockServer();
    const a = replica(server);
    const b = replica(server);
    await a.leadership.start();
    await b.leadership.start();
    expect([a.leadership.isLeader, b.leadership.isLeader]).toEqual([true, false]);
    expect([a.state.working, b.state.working]).toEqual([true, false]);
    expect(a.leadership.lockPid).toBe(server.holder?.pid);
    expect(b.leadership.lockPid).toBeNull();

    // A's connection dies: A stops its work at once and leaves the next tries to others; B takes the lock.
    (server.holder as FakeConnection).kill();
    expect(a.state.working).toBe(false);
    await until(() => b.leadership.isLeader);
    expect(b.state.working).toBe(true);
    expect(a.leadership.isLeader).toBe(false);
    // A tries again on a new connection, and follows while B leads.
    const triesBefore = server.nextPid;
    await until(() => server.nextPid > triesBefore);
    expect([a.leadership.isLeader, a.state.working]).toEqual([false, false]);

    // B stops (its server closes): its work stops, the lock is freed, A leads again.
    await b.leadership.stop();
    expect([b.leadership.isLeader, b.state.working]).toEqual([false, false]);
    await until(() => a.leadership.isLeader);
    expect([a.state.working, a.state.leads]).toEqual([true, 2]);
    await a.leadership.stop();
    expect(server.holder).toBeNull();
  });

  it('steps down when its connection stops answering', async () => {
    const server = new FakeLockServer();
    const a = replica(server);
    await a.leadership.start();
    expect(a.leadership.isLeader).toBe(true);
    // The connection ends without a word (no 'lost' event): the next check fails and the leader steps down.
    const connection = server.holder as FakeConnection;
    connection.ended = true;
    server.holder = null;
    await until(() => !a.leadership.isLeader);
    expect(a.state.working).toBe(false);
    // …and leads again on a new connection.
    await until(() => a.leadership.isLeader);
    expect(a.state.working).toBe(true);
    await a.leadership.stop();
  });
});
