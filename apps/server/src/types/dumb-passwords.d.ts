declare module 'dumb-passwords' {
  const dumbPasswords: { check(password: string): boolean; rateOf(password: string): number | undefined };
  export default dumbPasswords;
}
