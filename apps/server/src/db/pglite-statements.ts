import { parse, type PGlite, protocol, type Results } from '@electric-sql/pglite';

/** Prepared statements kept at once; the least recently used is closed beyond this. */
export const PGLITE_STATEMENT_CACHE_SIZE = 256;

interface Prepared {
  name: string;
  parameterTypes: number[];
}

/**
 * Statements on PGlite as named prepared statements, each execution one call into the database.
 *
 * `PGlite.query` parses, describes and plans the text every time, in six calls into the database (parse,
 * describe, bind, describe, execute, sync): a one-row lookup costs about 190 µs, against about 30 µs for
 * Bind/Describe/Execute/Sync of a prepared statement in one buffer (decision 021). The first execution of a
 * text prepares it (Parse and Describe, for the parameter types that pick each value's serializer, as
 * `PGlite.query` does); later ones only bind. PostgreSQL still re-plans a prepared statement with custom plans
 * until a generic one is as good (`plan_cache_mode = auto`), as for any prepared statement.
 *
 * Prepared statements are session state that DDL can invalidate (a cached `SELECT *` may no longer return its
 * old columns): whoever changes the schema (the migrations) calls `forget()` afterwards. Not for concurrent
 * use: the caller holds the connection.
 */
export class PgliteStatements {
  readonly #lite: PGlite;
  readonly #maxStatements: number;
  /** Least recently used first. */
  readonly #prepared = new Map<string, Prepared>();
  /** Statements evicted from the cache, closed with the next execution. */
  #toClose: string[] = [];
  #nextId = 0;

  constructor(lite: PGlite, maxStatements = PGLITE_STATEMENT_CACHE_SIZE) {
    if (!(Number.isInteger(maxStatements) && maxStatements > 0))
      throw new RangeError('maxStatements is a positive integer');
    this.#lite = lite;
    this.#maxStatements = maxStatements;
  }

  /** How many statements are prepared now (for tests). */
  get size(): number {
    return this.#prepared.size;
  }

  async query(sql: string, params: readonly unknown[] = []): Promise<Results<Record<string, unknown>>> {
    const statement = this.#prepared.get(sql) ?? (await this.#prepare(sql));
    // Least recently used first: a hit moves to the end.
    this.#prepared.delete(sql);
    this.#prepared.set(sql, statement);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serialize = this.#lite.serializers[statement.parameterTypes[i]!];
      return serialize ? serialize(value) : String(value);
    });
    const messages: Uint8Array[] = this.#toClose.map((name) => protocol.serialize.close({ type: 'S', name }));
    this.#toClose = [];
    messages.push(
      protocol.serialize.bind({ statement: statement.name, values }),
      protocol.serialize.describe({ type: 'P' }),
      protocol.serialize.execute({}),
      protocol.serialize.sync(),
    );
    const result = await this.#lite.runExclusive(() => this.#lite.execProtocol(Buffer.concat(messages)));
    return parse.parseResults(result.messages, this.#lite.parsers)[0]!;
  }

  /**
   * Forgets every prepared statement (after DDL): each is prepared again on its next use, and the old ones
   * are closed with the next execution (closing makes no round trip of its own, and cannot fail where the
   * caller's work left a transaction aborted).
   */
  forget(): void {
    for (const statement of this.#prepared.values()) this.#toClose.push(statement.name);
    this.#prepared.clear();
  }

  async #prepare(sql: string): Promise<Prepared> {
    const name = `hasta_${this.#nextId++}`;
    const result = await this.#lite.runExclusive(() =>
      this.#lite.execProtocol(
        Buffer.concat([
          protocol.serialize.parse({ name, text: sql }),
          protocol.serialize.describe({ type: 'S', name }),
          protocol.serialize.sync(),
        ]),
      ),
    );
    const statement = { name, parameterTypes: parse.parseDescribeStatementResults(result.messages) };
    if (this.#prepared.size >= this.#maxStatements) {
      const oldest = this.#prepared.entries().next().value;
      if (oldest) {
        this.#prepared.delete(oldest[0]);
        this.#toClose.push(oldest[1].name);
      }
    }
    return statement;
  }
}
