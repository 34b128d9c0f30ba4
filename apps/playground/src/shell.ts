/**
 * Words of a command for a POSIX shell (sh, bash, zsh): a value made only of characters no shell reads specially
 * stays as it is, so that ordinary commands read as typed; any other is put in single quotes, inside which a shell
 * reads nothing (a `'` is written `'\''`: close the quotes, an escaped quote, open them again).
 */

const SAFE = /^[A-Za-z0-9_./:=+-]+$/

/**
 * @example
 * shellWord("2025-01-31T09:00:00Z") // 2025-01-31T09:00:00Z
 * shellWord("var_1;touch /tmp/pwned;#") // 'var_1;touch /tmp/pwned;#'
 * shellWord("it's") // 'it'\''s'
 */
export const shellWord = (value: string): string => (SAFE.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`)
