/** The how-it-works demo (spec §2.6). */
export const demo = {
  title: 'How It Works',
  lead: 'Five steps take a palm scan to a settled payment. Hover over or focus a step to see what happens in it.',
  stepsLabel: 'Demo steps',
  stepNumber: 'Step {{number}}',
  current: 'current',
  progress: 'Step {{current}} of {{total}}',
  progressLabel: 'Demo progress',
  firstStepHint: 'Step 1 opens palm registration.',
  start: 'Start Demo',
  simulate: 'Simulate Scan',
  reset: 'Reset',
  waitlist: 'Join Waitlist',
  waitlistLead: 'Want palm payments in your city?',
};
