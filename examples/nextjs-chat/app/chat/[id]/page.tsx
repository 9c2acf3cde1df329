import { notFound } from 'next/navigation';
import { Chat } from '../../../components/chat';
import { chatMessages, isChatId, loadSession } from '../../../lib/toolbelt';

export const dynamic = 'force-dynamic';

/** One chat, by the id in its URL, with the messages its session kept (none for a new chat). */
export default async function ChatPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isChatId(id)) notFound();
  const messages = chatMessages(await loadSession(id));
  return <Chat id={id} initialMessages={messages} />;
}
