import { localSocialEnv } from '@raffle/service-kit';
import { DEMO_ACCOUNTS, NEBULA, startLocalDiscord, startLocalX, type LocalDiscord, type LocalX, type StandInAnswer } from '@raffle/social/local';

/** The platform's local Discord and X, and the settings that point management and the data plane at them. */
export type PlatformSocial = {
  discord: LocalDiscord;
  x: LocalX;
  /** The services' settings: these stand-ins' clients and URLs, the console as the callback's origin. */
  serviceEnv(consoleUrl: string): Record<string, string>;
  close(): Promise<void>;
};

/**
 * Discord and X cannot be reached from here, so `start` and the console's tests run the local
 * stand-ins of @raffle/social: the providers' OAuth endpoints and the REST reads, with the demo
 * accounts (alice in Nebula's guild with the Holder role, bob without it, carol following Nebula
 * on X). They keep everything in memory: links made before a restart stop working after it.
 */
export async function startPlatformSocial(options: { discordPort: number; xPort: number; host?: string; onAnswer?: (answer: StandInAnswer<string>) => void }): Promise<PlatformSocial> {
  const shared = { host: options.host ?? '127.0.0.1', ...(options.onAnswer ? { onAnswer: options.onAnswer } : {}) };
  const discord = await startLocalDiscord({ ...shared, port: options.discordPort });
  const x = await startLocalX({ ...shared, port: options.xPort }).catch(async (error: unknown) => {
    await discord.close();
    throw error;
  });
  return {
    discord,
    x,
    serviceEnv: (consoleUrl) => localSocialEnv({ discord, x }, consoleUrl),
    close: async () => {
      await Promise.all([discord.close(), x.close()]);
    },
  };
}

/** What `start` prints: where the stand-ins are and which demo account to pick on their consent pages. */
export function socialBanner(social: PlatformSocial, consoleUrl: string): string {
  return [
    `Local Discord on ${social.discord.url} and local X on ${social.x.url} (stand-ins: in memory, links do not survive a restart).`,
    `Link them in the console: sign in (links above), open Wallets, and under Connections click "Link Discord" or "Link X" (${consoleUrl}/personal/wallets).`,
    'On the stand-in\'s consent page pick a demo account:',
    `  Discord: alice is in the ${NEBULA.discord.name} server (${NEBULA.discord.guildId}) with the ${NEBULA.discord.roles.holder.name} role (${NEBULA.discord.roles.holder.id}); bob is in it without; carol is not.`,
    `  X: carol follows @${NEBULA.x.username} (${NEBULA.x.userId}); alice (account ${DEMO_ACCOUNTS.alice.x.ageDays} days old) and bob (${DEMO_ACCOUNTS.bob.x.ageDays} days) do not.`,
  ].join('\n');
}
