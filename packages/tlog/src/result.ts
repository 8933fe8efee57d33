/** Verification outcomes carry a reason a person can read, instead of throwing on bad input. */
export interface Failure {
  ok: false;
  reason: string;
}

export type Result<T> = { ok: true; value: T } | Failure;

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (reason: string): Failure => ({ ok: false, reason });
