/** `text` as a LIKE / ILIKE pattern that matches it literally anywhere: its \ % and _ escaped, % on both sides. */
export const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
