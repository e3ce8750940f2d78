import type { PreviewFrame, PreviewRender } from '../api/preview.ts';
import type { WizardDraft } from './wizard-draft.ts';

/** The page open in the crawler's browser for this wizard. */
export type PreviewSession = {
  sessionId: string;
  render: PreviewRender;
  /** The frames of the top document, still offered while the preview shows one of them. */
  topFrames: PreviewFrame[];
};

/** What every step gets from the wizard: the draft, the live preview and the way on. */
export type StepProps = {
  draft: WizardDraft;
  change: (update: (draft: WizardDraft) => WizardDraft) => void;
  preview: PreviewSession | null;
  setRender: (render: PreviewRender) => void;
  /** The crawler closed the session (10 minutes idle): the page must be opened again. */
  onPreviewExpired: () => void;
  /** Absent where going back is not possible (after the areas were registered, docs/product.md#wizard). */
  onBack?: (() => void) | undefined;
  onNext: () => void;
};

/** The frame a render shows, as areas remember it ('' for the top document). */
export const frameKeyOf = (render: PreviewRender | null | undefined) => render?.frame?.selector ?? '';
