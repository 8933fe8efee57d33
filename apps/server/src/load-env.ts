import { EnvError, parseEnv, type Env } from './env';

/** Reads process.env; on a bad value prints one clear line and exits. */
export function loadEnvOrExit(): Env {
  try {
    return parseEnv(process.env);
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
