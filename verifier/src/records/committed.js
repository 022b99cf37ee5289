/**
 * Section 17: where a text holds a commitment (a draw's record, the file xlshuffle commit
 * writes, or a commitment's body alone).
 */

/**
 * The commitment a text holds: a draw's record ({commitment: {body, sha256, salt}}), the file
 * `xlshuffle commit` writes ({commitment: body, sha256}) or a commitment's body alone:
 * {body, sha256 (null: not stated), salt (null: not revealed), record (the draw's, or null)}.
 */
export function committedBody(value) {
  const v = value && typeof value === "object" ? value : {};
  if (v.commitment && v.commitment.body)
    return {
      body: v.commitment.body,
      sha256: v.commitment.sha256 ?? null,
      salt: v.commitment.salt ?? null,
      record: v,
    };
  if (v.commitment && v.commitment.commitment_version !== undefined)
    return { body: v.commitment, sha256: v.sha256 ?? null, salt: null, record: null };
  if (v.commitment_version !== undefined)
    return { body: v, sha256: null, salt: null, record: null };
  return null;
}
