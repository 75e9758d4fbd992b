/** An injected EIP-1193 provider (MetaMask, Rabby, Coinbase Wallet, … set `window.ethereum`). */
export type Eip1193Provider = { request(args: { method: string; params?: unknown[] }): Promise<unknown> };

export function injectedWallet(): Eip1193Provider | null {
  const candidate = (window as unknown as { ethereum?: Eip1193Provider }).ethereum;
  return candidate && typeof candidate.request === 'function' ? candidate : null;
}

/** The wallet's selected account and chain (asks the user to connect when it is not yet). */
export async function connectWallet(wallet: Eip1193Provider): Promise<{ address: string; chainId: number }> {
  const accounts = (await wallet.request({ method: 'eth_requestAccounts' })) as string[];
  const address = accounts?.[0];
  if (!address) throw new Error('The wallet shared no account.');
  const chainId = Number.parseInt(String(await wallet.request({ method: 'eth_chainId' })), 16);
  return { address, chainId };
}

/** personal_sign (EIP-191): what a wallet shows as the text itself, and what the server checks. */
export async function signWithWallet(wallet: Eip1193Provider, message: string, address: string): Promise<string> {
  return String(await wallet.request({ method: 'personal_sign', params: [message, address] }));
}
