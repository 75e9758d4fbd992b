import type { Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsolePlatform } from './support/console-platform.js';
import { checkPage } from './support/page-checks.js';

type Platform = Awaited<ReturnType<typeof startConsolePlatform>>;

let platform: Platform;

beforeAll(async () => {
  platform = await startConsolePlatform();
}, 240_000);

afterAll(async () => {
  await platform?.stop();
});

/** The local chain every test run starts (anvil's chain id). */
const LOCAL_CHAIN_ID = 31337;

/** The demo user with no workspace: wallets are a user's own, whatever space is picked. */
async function openWallets(prepare?: (page: Page) => Promise<void>): Promise<Page> {
  const page = await platform.newPage();
  if (prepare) await prepare(page);
  await page.goto(platform.userWithoutWorkspace.signInUrl);
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Wallets' }).click();
  await page.getByRole('heading', { level: 1, name: 'Wallets' }).waitFor();
  return page;
}

/**
 * An injected EIP-1193 wallet, as MetaMask and others set `window.ethereum`: it answers with the
 * account's address (lowercase, as MetaMask does) and anvil's chain, and signs with a viem local
 * account outside the page (exposeFunction), so the key never enters the page.
 */
async function injectWallet(page: Page, account: PrivateKeyAccount, signed: string[]): Promise<void> {
  await page.exposeFunction('__fakeWalletSign', async (message: string) => {
    signed.push(message);
    return account.signMessage({ message });
  });
  await page.addInitScript(
    ({ address, chainId }) => {
      const sign = (window as unknown as { __fakeWalletSign: (m: string) => Promise<string> }).__fakeWalletSign;
      (window as unknown as { ethereum: unknown }).ethereum = {
        async request({ method, params }: { method: string; params?: unknown[] }) {
          if (method === 'eth_requestAccounts') return [address.toLowerCase()];
          if (method === 'eth_chainId') return `0x${chainId.toString(16)}`;
          if (method === 'personal_sign') return sign(String(params?.[0]));
          throw new Error(`unsupported method ${method}`);
        },
      };
    },
    { address: account.address, chainId: LOCAL_CHAIN_ID },
  );
}

const walletRow = (page: Page, address: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: address }) });

async function unlink(page: Page, address: string): Promise<void> {
  await walletRow(page, address).getByRole('button', { name: 'Unlink', exact: true }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm.textContent()).resolves.toContain(address);
  await confirm.getByRole('button', { name: 'Unlink', exact: true }).click();
  await walletRow(page, address).waitFor({ state: 'detached' });
}

describe('the Wallets page', () => {
  it('links a wallet with the browser wallet, showing the message it signs, then unlinks it', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const signed: string[] = [];
    const page = await openWallets((p) => injectWallet(p, account, signed));
    // The demo user's wallets from the demo data are listed, proven by "demo data".
    await page.getByRole('table').getByText('demo data').first().waitFor();
    await checkPage(page, 'wallets-list');

    await page.getByRole('button', { name: 'Link a wallet' }).click();
    await page.getByRole('button', { name: 'Sign with browser wallet' }).waitFor();
    await checkPage(page, 'wallets-link-browser');
    await page.getByRole('button', { name: 'Sign with browser wallet' }).click();
    await walletRow(page, account.address).waitFor();

    // The wallet signed the EIP-4361 text for this console, with the checksummed address and anvil's chain.
    expect(signed).toHaveLength(1);
    expect(signed[0]).toContain(`${new URL(platform.consoleUrl).host} wants you to sign in with your Ethereum account:\n${account.address}\n`);
    expect(signed[0]).toContain(`Chain ID: ${LOCAL_CHAIN_ID}`);
    await expect(walletRow(page, account.address).textContent()).resolves.toContain('signature');
    await checkPage(page, 'wallets-linked');

    await unlink(page, account.address);
    await page.close();
  });

  it('without a browser wallet: address and chain, the message shown to sign anywhere, the signature pasted', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const page = await openWallets();
    await page.getByRole('button', { name: 'Link a wallet' }).click();
    await page.getByText('No browser wallet found').waitFor();
    await page.getByLabel('Wallet address').fill(account.address.toLowerCase());
    const message = await page.getByLabel('Message to sign').inputValue();
    expect(message).toContain(`\n${account.address}\n`);
    await checkPage(page, 'wallets-link-paste');

    await page.getByLabel('Signature').fill(await account.signMessage({ message }));
    await page.getByRole('button', { name: 'Link wallet', exact: true }).click();
    await walletRow(page, account.address).waitFor();
    await unlink(page, account.address);
    await page.close();
  });

  it("a signature that is not the address's is refused with its code, and nothing is linked", async () => {
    const [account, other] = [privateKeyToAccount(generatePrivateKey()), privateKeyToAccount(generatePrivateKey())];
    const page = await openWallets();
    await page.getByRole('button', { name: 'Link a wallet' }).click();
    await page.getByLabel('Wallet address').fill(account.address);
    const message = await page.getByLabel('Message to sign').inputValue();
    await page.getByLabel('Signature').fill(await other.signMessage({ message }));
    await page.getByRole('button', { name: 'Link wallet', exact: true }).click();
    const alert = page.getByRole('alert');
    await alert.first().waitFor();
    expect((await alert.allTextContents()).join(' ')).toContain('SIWE_SIGNATURE_INVALID');
    await expect(walletRow(page, account.address).count()).resolves.toBe(0);
    await page.close();
  });
});
