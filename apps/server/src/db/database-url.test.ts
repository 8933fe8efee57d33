import { describe, expect, it } from 'vitest';
import { databaseHosts, MAX_DATABASE_HOSTS } from './database-url';

describe('databaseHosts', () => {
  it('passes one host on exactly as written', () => {
    const url = 'postgres://u:p%40ss@db.internal/hasta?sslmode=require';
    expect(databaseHosts(url)).toEqual([{ address: 'db.internal:5432', connectionString: url }]);
  });

  it('splits libpq multi-host URLs into one URL per host, in order, keeping credentials and parameters', () => {
    expect(
      databaseHosts(
        'postgresql://u:p@10.0.0.1:5432,[fd00::2]:5433,db3/hasta?sslmode=require&target_session_attrs=read-write',
      ),
    ).toEqual([
      { address: '10.0.0.1:5432', connectionString: 'postgresql://u:p@10.0.0.1:5432/hasta?sslmode=require' },
      {
        address: '[fd00::2]:5433',
        connectionString: 'postgresql://u:p@[fd00::2]:5433/hasta?sslmode=require',
      },
      { address: 'db3:5432', connectionString: 'postgresql://u:p@db3:5432/hasta?sslmode=require' },
    ]);
  });

  it.each([
    ['mysql://x', /must be a postgres/],
    ['postgres://u@h1:5432,:5433/db', /host that is not host or host:port/],
    ['postgres://u@h1:99999/db', /port out of range/],
    ['postgres://u@h1,h2/db?target_session_attrs=read-only', /target_session_attrs must be read-write/],
    [
      `postgres://u@${Array.from({ length: MAX_DATABASE_HOSTS + 1 }, (_, i) => `h${i}`).join(',')}/db`,
      /at most/,
    ],
  ])('refuses %s', (url, message) => {
    expect(() => databaseHosts(url)).toThrow(message);
  });
});
