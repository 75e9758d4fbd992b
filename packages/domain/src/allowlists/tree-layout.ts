// Where things are in a StandardMerkleTree's node array: the root at 0, node i's children at
// 2i+1 and 2i+2, the leaves at the end. A proof is the sibling of each node on the way from the
// leaf to the root, so it can be read from the stored nodes by index without rebuilding anything.

/** The indexes of the proof of the leaf at `treeIndex`, leaf end first (the order MerkleProof.verify folds them). */
export function proofIndexes(treeIndex: number): number[] {
  const indexes: number[] = [];
  for (let i = treeIndex; i > 0; i = (i - 1) >> 1) indexes.push(i % 2 === 1 ? i + 1 : i - 1);
  return indexes;
}
