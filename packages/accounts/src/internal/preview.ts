/** An input shortened for error messages, so that a huge payload does not make a huge message. */
export const preview = (input: string): string => (input.length > 48 ? `${input.slice(0, 45)}...` : input)
