/* Mosaic web app, view — Social: feeds (trending / hot / new) with a tag filter, a post with its
 * threaded replies (children load on expand), compose, reply, vote with a weight slider, and
 * the apps the user authorized (revoke). Needs the framework files.
 *
 * Test hooks:
 *  Feed    #social #compose-open #social-apps-link #social-account
 *          stake: #stake-form #stake-amount #stake-submit #unstake-submit #stake-error
 *          #social-tab-trending #social-tab-hot #social-tab-created (.tab[aria-selected])
 *          #social-tag-form #social-tag #social-tag-apply #social-tag-clear #social-tag-active
 *          #social-feed (li.post-card[data-id] .post-title .post-author .post-age .post-votes
 *          .post-rshares .post-replies .post-tag[data-tag]) #social-empty #social-more
 *  Compose #compose-form #compose-title #compose-body #compose-tags #compose-error #compose-submit
 *          (the same dialog edits the wallet's own post: #post-edit-open)
 *  Post    #social-post[data-id] #post-title #post-body #post-meta (same classes as a card)
 *          vote: #vote-weight (range −100…100 %) #vote-weight-label #vote-submit #my-vote #vote-error
 *          reply: #reply-form #reply-body #reply-error #reply-submit
 *          #replies (li.reply[data-id][data-depth] .reply-body .reply-open .replies-toggle
 *          .reply-form .reply-text .reply-send .vote-range .vote-btn, nested ul.replies)
 *  Apps    #social-apps #social-grants (li.grant[data-app][data-expired] .grant-scope
 *          .grant-revoke) #social-grants-empty
 *  Also    #post-votes (.post-voter[data-voter] with its a.post-author) on a post
 *          a.post-author[href=#/social/u/NAME-or-ID] .post-reward (paid) / .post-pending (estimate)
 *          #post-limit (the 5-minute rule's countdown, in the feed and the compose dialog)
 *          #social-unlock (shown instead of the write controls when no wallet is unlocked)
 * Feeds, posts and profiles are public routes: they read without a wallet; writes ask to unlock.
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, api, toast, dialog, confirmDialog, field, errorBox, showError, busy, shortHash, fmtDate, routes, render, pageHead, go } = M;

  const SORTS = [['trending', 'Trending'], ['hot', 'Hot'], ['created', 'Created']];
  const SORT_NOTES = {
    trending: 'Posts with positive votes from the last 7 days, ranked by stake-weighted votes over about a day.',
    hot: 'Posts with positive votes, ranked for the last few hours: newer posts need fewer votes.',
    created: 'Every post, newest first.'
  };

  function me() { const s = M.state.session; return s && s.state === 'unlocked' && s.wallet ? s.wallet.client_id : ''; }
  function unlocked() { return !!me(); }
  M.publicRoutes = Object.assign(M.publicRoutes || {}, { social: true });

  // Writes need an unlocked wallet: say so, then show the unlock (or create-wallet) screen.
  function requireSession(what) {
    if (unlocked()) return true;
    const s = M.state.session;
    toast('Unlock your wallet to ' + what, 'info');
    if (s && s.state === 'no_wallet') M.renderOnboarding(); else M.renderUnlock();
    return false;
  }
  function tokens(units) {
    const v = Number(units || 0) / 1e10;
    return (v >= 1 ? v.toLocaleString('en-US', { maximumFractionDigits: 4 }) : String(Number(v.toPrecision(4)))) + ' MSC';
  }

  /* ----------------------------------------------------------- format */

  function age(sec) {
    const s = Math.max(0, Math.floor(Date.now() / 1000 - Number(sec)));
    if (s < 45) return 'just now';
    if (s < 3600) return Math.max(1, Math.round(s / 60)) + ' min ago';
    if (s < 86400) return Math.round(s / 3600) + ' h ago';
    return Math.round(s / 86400) + ' d ago';
  }
  function plural(n, one, many) { return n + ' ' + (Number(n) === 1 ? one : many); }
  function fmtInt(n) {
    const v = String(n);
    const neg = v.startsWith('-');
    const digits = neg ? v.slice(1) : v;
    return (neg ? '−' : '') + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  }
  function pct(weight) {
    const p = Math.round(Number(weight) / 100);
    return (p > 0 ? '+' : p < 0 ? '−' : '') + Math.abs(p) + ' %';
  }
  function postHref(p) { return '#/social/post/' + p.author + '/' + p.permlink; }
  function profileHref(id, name) { return '#/social/u/' + encodeURIComponent(name || id); }
  function authorEl(id, name) {
    const mine = id === me();
    return h('a', { class: 'post-author' + (name ? '' : ' mono') + (mine ? ' mine' : ''), href: profileHref(id, name), title: name ? name + ' · ' + id : id,
      data: { name: name || '' }, text: mine ? 'you' : (name || shortHash(id, 6)) });
  }
  function rewardEl(p) {
    if (p.reward) {
      const total = Number(p.reward.author) + Number(p.reward.curation);
      return h('span', { class: 'post-reward', title: 'Author ' + tokens(p.reward.author) + ' · curators ' + tokens(p.reward.curation), text: 'earned ' + tokens(total) });
    }
    if (p.pending_reward) return h('span', { class: 'post-pending', title: 'What the post would earn if its payout window closed now', text: '≈ ' + tokens(p.pending_reward) + ' pending' });
    return null;
  }
  function meta(p, id) {
    return h('div', { class: 'post-meta small', id },
      authorEl(p.author, p.author_name),
      h('span', { class: 'post-age', title: fmtDate(p.created), text: age(p.created) }),
      h('span', { class: 'post-votes', text: plural(p.vote_count, 'vote', 'votes') }),
      h('span', { class: 'post-rshares', title: 'Net rshares: the stake-weighted sum of the votes', text: fmtInt(p.net_rshares) + ' rshares' }),
      h('span', { class: 'post-replies', text: plural(p.children, 'reply', 'replies') }),
      rewardEl(p),
      p.paid_out ? h('span', { class: 'chip', text: 'closed' }) : null);
  }
  function tagChips(tags) {
    if (!tags || !tags.length) return null;
    return h('div', { class: 'post-tags' }, tags.map((t) =>
      h('a', { class: 'chip post-tag', href: '#/social?sort=created&tag=' + encodeURIComponent(t), data: { tag: t }, text: '#' + t })));
  }

  /* ---------------------------------------------------------- approve */

  // What a social write will sign, before it is (dialog.js approve()). Posts, replies, edits, the
  // profile and claims are social actions the user may stop being asked about; staking, and a vote
  // that counts locked stake, move value and always ask.
  async function approve(opts) {
    const b = await api('GET', '/api/balance').catch(() => null);
    const fee = b && b.fee_tokens ? b.fee_tokens + ' ' + (b.symbol || 'MSC') : '';
    return M.approve(Object.assign({ kind: 'social', fee, to: 'The social contract' }, opts));
  }
  const FEE_ONLY = 'Nothing is paid but the network fee';
  function quoted(title) { return title ? ' \u201c' + (title.length > 60 ? title.slice(0, 57) + '…' : title) + '\u201d' : ''; }

  // Shows the chain's refusal (or any error) as an alert toast and inline.
  function fail(ex, inline) {
    if (ex && ex.status === 401) return;
    toast(ex.message, 'error');
    if (inline) showError(inline, ex.message);
  }

  /* ------------------------------------------------------------- vote */

  // A weight slider (−100…100 %) with a Vote button. `ids` gives the root post's stable ids.
  function voteControl(p, myVote, onVoted, ids, compact) {
    const start = myVote ? Math.round(myVote / 100) : 100;
    const range = h('input', { type: 'range', class: 'vote-range', min: '-100', max: '100', step: '1', value: String(start),
      id: ids ? 'vote-weight' : null, 'aria-label': 'Vote weight in percent' });
    const label = h('output', { class: 'vote-label', id: ids ? 'vote-weight-label' : null });
    const btn = h('button', { type: 'button', class: 'btn btn-small vote-btn', id: ids ? 'vote-submit' : null, text: 'Vote' });
    const current = h('span', { class: 'vote-current small muted', id: ids ? 'my-vote' : null });
    const err = h('p', { class: 'form-error vote-error', id: ids ? 'vote-error' : null, role: 'alert', hidden: true });
    let mine = myVote || 0;
    function showLabel() {
      const v = Number(range.value);
      label.textContent = v === 0 ? '0 % (removes your vote)' : pct(v * 100);
      btn.textContent = v < 0 ? 'Downvote' : v === 0 ? 'Remove vote' : 'Upvote';
      current.textContent = mine ? 'Your vote: ' + pct(mine) : 'Not voted yet';
      current.dataset.weight = String(mine);
    }
    range.addEventListener('input', showLabel);
    btn.addEventListener('click', async () => {
      if (!requireSession('vote')) return;
      const weight = Number(range.value) * 100;
      showError(err, '');
      const account = weight !== 0 ? await api('GET', '/api/social/account').catch(() => null) : null;
      const stake = account ? Number(account.stake || 0) : 0;
      const what = weight === 0 ? 'Remove your vote' : (weight < 0 ? 'Downvote ' : 'Upvote ') + pct(weight);
      if (!await approve({
        kind: stake > 0 ? 'value' : 'social',
        action: what + (p.parent_id ? ' on a reply' : ' on' + quoted(p.title)),
        amount: stake > 0 ? 'Your voting stake of ' + tokens(stake) + ' counts and stays locked until the post pays out' : FEE_ONLY,
        yes: 'Approve and vote'
      })) return;
      busy(btn, true, 'Sealing…');
      const t = toast('Voting ' + pct(weight) + '… waiting for the block to seal', 'progress');
      try {
        const r = await api('POST', '/api/social/votes', { id: p.id, weight });
        mine = r.my_vote;
        t.update(weight === 0 ? 'Vote removed' : 'Vote recorded: ' + pct(weight), 'success');
        busy(btn, false);
        showLabel();
        if (onVoted) onVoted(r.post);
      } catch (ex) {
        t.close();
        busy(btn, false);
        showLabel();
        fail(ex, err);
      }
    });
    showLabel();
    // A reply's control is one short row: slider, weight, button and the current vote.
    if (compact) return h('div', { class: 'vote-control vote-compact' }, h('div', { class: 'vote-row' }, range, label, btn, current), err);
    return h('div', { class: 'vote-control' },
      h('div', { class: 'vote-row' }, range, label, btn), current, err);
  }

  /* ------------------------------------------------------------- feed */

  function postCard(p) {
    return h('li', { class: 'post-card', data: { id: p.id } },
      h('a', { class: 'post-title', href: postHref(p), text: p.title || '(untitled)' }),
      h('p', { class: 'post-excerpt' }, M.markdown(p.body + (p.body_truncated ? '…' : ''), { inline: true })),
      meta(p), tagChips(p.tags));
  }

  async function feedPage(r) {
    const sort = SORTS.some(([s]) => s === r.params.get('sort')) ? r.params.get('sort') : 'trending';
    const tag = (r.params.get('tag') || '').trim().toLowerCase().replace(/^#/, '');
    const link = (s, t) => '#/social?sort=' + s + (t ? '&tag=' + encodeURIComponent(t) : '');

    const compose = h('button', { type: 'button', class: 'btn btn-primary', id: 'compose-open', text: 'New post' });
    compose.addEventListener('click', () => { if (requireSession('write a post')) openCompose(tag); });
    const limit = h('p', { class: 'small muted', id: 'post-limit', hidden: true });
    const apps = h('a', { class: 'btn', id: 'social-apps-link', href: '#/social/apps', text: 'Apps' });
    const tabs = h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Feeds' }, SORTS.map(([s, label]) =>
      h('button', { type: 'button', class: 'tab', role: 'tab', id: 'social-tab-' + s, 'aria-selected': String(s === sort), text: label,
        on: { click: () => go(link(s, tag)) } })));
    const tagInput = h('input', { type: 'text', id: 'social-tag', placeholder: 'Filter by tag', value: tag, autocomplete: 'off',
      autocapitalize: 'none', spellcheck: 'false', 'aria-label': 'Tag' });
    const tagForm = h('form', { class: 'tag-filter', id: 'social-tag-form', role: 'search' }, tagInput,
      h('button', { type: 'submit', class: 'btn', id: 'social-tag-apply', text: 'Filter' }),
      tag ? h('a', { class: 'btn btn-ghost', id: 'social-tag-clear', href: link(sort, ''), text: 'Clear' }) : null);
    tagForm.addEventListener('submit', (e) => {
      e.preventDefault();
      go(link(sort, tagInput.value.trim().toLowerCase().replace(/^#/, '')));
    });
    const list = h('ul', { class: 'post-list', id: 'social-feed', 'aria-busy': 'true' });
    const empty = h('p', { class: 'empty', id: 'social-empty', hidden: true });
    const loading = h('p', { class: 'muted', id: 'social-loading', role: 'status', text: 'Loading posts…' });
    const more = h('button', { type: 'button', class: 'btn', id: 'social-more', text: 'Load more', hidden: true });
    const account = h('p', { class: 'muted small', id: 'social-account' });
    // Votes count the voting stake, locked here; each vote keeps it until the voted post pays out.
    const stakeAmount = h('input', { type: 'text', id: 'stake-amount', placeholder: 'Tokens', inputmode: 'decimal', autocomplete: 'off',
      'aria-label': 'Tokens to stake or unstake' });
    const stakeBtn = h('button', { type: 'submit', class: 'btn btn-small', id: 'stake-submit', text: 'Stake' });
    const unstakeBtn = h('button', { type: 'button', class: 'btn btn-small btn-ghost', id: 'unstake-submit', text: 'Unstake' });
    const stakeErr = h('p', { class: 'form-error', id: 'stake-error', role: 'alert', hidden: true });
    const stakeForm = h('form', { class: 'tag-filter', id: 'stake-form', title: 'Your votes count your voting stake, not your balance. A vote keeps the stake locked until the post pays out (7 days).' },
      stakeAmount, stakeBtn, unstakeBtn);
    function showAccount(a) {
      if (a.name) account.dataset.name = a.name;
      const stake = Number(a.stake || 0) / 1e10;
      const locked = a.stake_locked_until ? ' (locked until ' + fmtDate(a.stake_locked_until) + ')' : '';
      account.textContent = 'Voting power ' + (a.voting_power / 100).toFixed(2) + ' % · stake ' + stake + ' tokens' + locked + ' · ' +
        plural(a.post_count, 'post', 'posts and replies');
      account.dataset.stake = String(a.stake || 0);
    }
    async function changeStake(path, btn) {
      stakeErr.hidden = true;
      const unstake = path.endsWith('unstake');
      const amount = stakeAmount.value.trim();
      // Checked before the approval, so the dialog never shows an amount the chain would refuse.
      if (!amount && !unstake) return showError(stakeErr, 'Enter how many tokens to stake, such as 0.5');
      if (amount && !/^\d+(\.\d{1,10})?$/.test(amount)) {
        return showError(stakeErr, 'That is not an amount: give the amount to ' + (unstake ? 'unstake' : 'stake') + ' in tokens, such as 0.5');
      }
      if (!await approve({
        kind: 'value', action: unstake ? 'Unstake voting tokens' : 'Stake tokens for voting',
        amount: unstake ? (amount ? amount + ' MSC' : 'All your voting stake') + ' back to your balance' : amount + ' MSC locked as your voting stake'
      })) return;
      busy(btn, true, path.endsWith('unstake') ? 'Unstaking…' : 'Staking…');
      try {
        const r = await api('POST', path, { amount: stakeAmount.value.trim() });
        showAccount(r.account);
        stakeAmount.value = '';
      } catch (ex) {
        fail(ex, stakeErr);
      } finally {
        busy(btn, false);
      }
    }
    stakeForm.addEventListener('submit', (e) => { e.preventDefault(); changeStake('/api/social/stake', stakeBtn); });
    unstakeBtn.addEventListener('click', () => changeStake('/api/social/unstake', unstakeBtn));
    const unlock = h('p', { class: 'small', id: 'social-unlock' }, 'Reading without a wallet. ',
      h('button', { type: 'button', class: 'btn btn-small', text: 'Unlock to post and vote', on: { click: () => requireSession('post and vote') } }));
    render(h('section', { id: 'social', data: { sort, tag } },
      pageHead('Social', '#/', h('div', { class: 'actions' }, unlocked() ? apps : null, compose)),
      unlocked() ? [account, limit, stakeForm, stakeErr] : unlock, tabs, tagForm,
      tag ? h('p', { class: 'small', id: 'social-tag-active' }, 'Showing ', h('strong', { text: '#' + tag }), ' only') : null,
      h('p', { class: 'muted small', id: 'social-feed-note', text: SORT_NOTES[sort] }),
      loading, list, empty, h('div', { class: 'actions left' }, more)));

    if (unlocked()) {
      api('GET', '/api/social/account').then((a) => { showAccount(a); postLimit(a, limit); }).catch(() => {});
      const mine = h('a', { class: 'btn', id: 'social-my-profile', href: profileHref(me(), ''), text: 'My profile' });
      $('.page-head .actions', $('#social')).prepend(mine);
    }

    let next = null, round = null;
    async function load() {
      const q = new URLSearchParams({ sort, limit: '20' });
      if (tag) q.set('tag', tag);
      if (next) { q.set('start', next); q.set('round', String(round)); }
      busy(more, true, 'Loading…');
      try {
        const page = await api('GET', '/api/social/feed?' + q.toString());
        page.posts.forEach((p) => list.appendChild(postCard(p)));
        next = page.next; round = page.round;
        more.hidden = !next;
        if (!list.children.length) {
          empty.textContent = sort === 'created'
            ? (tag ? 'No posts tagged #' + tag + ' yet.' : 'No posts yet. Write the first one!')
            : 'No ' + sort + ' posts' + (tag ? ' tagged #' + tag : '') + ': posts appear here once they have positive votes. Created lists every post.';
          empty.hidden = false;
        }
      } catch (ex) {
        fail(ex, null);
        if (!list.children.length && ex.status !== 401) { empty.textContent = ex.message; empty.hidden = false; }
      } finally {
        busy(more, false);
        loading.hidden = true;
        list.setAttribute('aria-busy', 'false');
      }
    }
    more.addEventListener('click', load);
    await load();
  }

  // The one-root-post-per-5-minutes rule, shown before writing: a countdown to the next allowed
  // post. Publish stays enabled (the draft can be written meanwhile; the chain's refusal says the same).
  function postLimit(a, el) {
    if (!a || !a.next_root_post_at) return;
    const until = Number(a.next_root_post_at);
    // Ledger time, which a devnet can move ahead of the clock: the account read says what it was.
    const offset = a.ledger_time ? Number(a.ledger_time) - Date.now() / 1000 : 0;
    function tick() {
      const left = Math.ceil(until - (Date.now() / 1000 + offset));
      if (left <= 0) {
        el.hidden = true;
        return;
      }
      el.hidden = false;
      el.dataset.left = String(left);
      el.textContent = 'One post per 5 minutes: you can post again in ' + Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0') + '. Replies are not limited this way.';
      timer = setTimeout(tick, 1000);
    }
    let timer = null;
    M.onLeave(() => clearTimeout(timer));
    tick();
  }

  // The compose dialog; with `editing` (a post of this wallet) it changes that post instead.
  function openCompose(tag, editing) {
    const root = !editing || !editing.parent_id;
    const err = errorBox('compose-error');
    const submit = h('button', { type: 'submit', class: 'btn btn-primary', id: 'compose-submit', text: editing ? 'Save' : 'Publish' });
    const form = h('form', { id: 'compose-form', class: 'stack', novalidate: true },
      root ? field({ id: 'compose-title', label: 'Title', autocomplete: 'off', maxlength: 255, required: true, value: editing ? editing.title : '' }) : null,
      field({ id: 'compose-body', tag: 'textarea', label: 'Text', rows: 6, required: true }),
      root ? field({ id: 'compose-tags', label: 'Tags (up to 5, the first is the category)', autocomplete: 'off', autocapitalize: 'none',
        spellcheck: 'false', placeholder: 'intro, swift', value: editing ? editing.tags.join(', ') : tag || '',
        hint: 'Lowercase letters, digits and -, separated by commas or spaces.' }) : null,
      err, h('div', { class: 'actions' }, submit));
    if (editing) $('#compose-body', form).value = editing.body;
    if (!editing) {
      const note = h('p', { class: 'small muted', id: 'post-limit', hidden: true });
      form.prepend(note);
      api('GET', '/api/social/account').then((a) => postLimit(a, note)).catch(() => {});
    }
    let dlg = null;
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const title = root ? $('#compose-title', form).value.trim() : '';
      const body = $('#compose-body', form).value;
      const tags = root ? $('#compose-tags', form).value : '';
      if (root && !title) return showError(err, 'Give the post a title');
      if (!body.trim()) return showError(err, 'Write something');
      showError(err, '');
      if (!await approve({ action: (editing ? 'Edit your ' + (root ? 'post' : 'reply') : 'Publish') + quoted(root ? title : ''), amount: FEE_ONLY })) return;
      busy(submit, true, (editing ? 'Saving' : 'Publishing') + '… waiting for the block to seal');
      form.setAttribute('aria-busy', 'true');
      const reroute = M.rerouteHere();
      try {
        const r = editing
          ? await api('POST', '/api/social/edit', root ? { id: editing.id, title, body, tags } : { id: editing.id, body })
          : await api('POST', '/api/social/posts', { title, body, tags });
        toast(editing ? 'Changes saved' : 'Post published', 'success');
        dlg.close();
        if (editing) reroute(); else go('#/social/post/' + r.id);
      } catch (ex) {
        busy(submit, false);
        form.setAttribute('aria-busy', 'false');
        fail(ex, err);
      }
    });
    dlg = dialog({ id: 'compose-dialog', title: editing ? 'Edit' : 'New post', body: form });
  }

  /* ------------------------------------------------------------- post */

  // The replies of `parentID` into `ul`, each with its own reply form, vote and expander.
  async function loadReplies(parentID, ul) {
    ul.setAttribute('aria-busy', 'true');
    try {
      const r = await api('GET', '/api/social/replies?id=' + encodeURIComponent(parentID));
      ul.replaceChildren(...r.replies.map(replyItem));
      ul.hidden = false;
      return r.replies.length;
    } catch (ex) {
      fail(ex, null);
      return -1;
    } finally {
      ul.setAttribute('aria-busy', 'false');
    }
  }

  function replyItem(p) {
    const children = h('ul', { class: 'replies', hidden: true });
    const slot = h('div', { class: 'reply-form-slot' });
    let metaEl = meta(p);
    const toggle = h('button', { type: 'button', class: 'btn btn-ghost btn-small replies-toggle', 'aria-expanded': 'false', hidden: !p.children });
    function toggleText() { toggle.textContent = (toggle.getAttribute('aria-expanded') === 'true' ? 'Hide ' : 'Show ') + plural(p.children, 'reply', 'replies'); }
    toggleText();
    toggle.addEventListener('click', async () => {
      const open = toggle.getAttribute('aria-expanded') === 'true';
      if (open) { children.hidden = true; toggle.setAttribute('aria-expanded', 'false'); return toggleText(); }
      busy(toggle, true, 'Loading…');
      await loadReplies(p.id, children);
      busy(toggle, false);
      toggle.setAttribute('aria-expanded', 'true');
      toggleText();
    });
    const open = h('button', { type: 'button', class: 'btn btn-ghost btn-small reply-open', text: 'Reply' });
    open.addEventListener('click', () => {
      if (slot.firstChild) { slot.replaceChildren(); return; }
      if (!requireSession('reply')) return;
      slot.appendChild(replyForm(p.id, null, async () => {
        slot.replaceChildren();
        p.children += 1;
        const m = meta(p); metaEl.replaceWith(m); metaEl = m;
        toggle.hidden = false;
        await loadReplies(p.id, children);
        toggle.setAttribute('aria-expanded', 'true');
        toggleText();
      }));
      const ta = slot.querySelector('textarea');
      if (ta) ta.focus();
    });
    const vote = voteControl(p, p.my_vote || 0, (post) => { const m = meta(post); metaEl.replaceWith(m); metaEl = m; }, null, true);
    const li = h('li', { class: 'reply', data: { id: p.id, depth: String(p.depth) } },
      metaEl, h('div', { class: 'reply-body post-body' }, M.markdown(p.body)),
      h('div', { class: 'reply-actions' }, open, toggle), vote, slot, children);
    return li;
  }

  // A reply form; `ids` gives the root form its stable ids.
  function replyForm(parentID, ids, onDone) {
    const err = h('p', { class: 'form-error', id: ids ? 'reply-error' : null, role: 'alert', hidden: true });
    const ta = h('textarea', { class: 'reply-text', id: ids ? 'reply-body' : null, rows: 3, required: true, 'aria-label': 'Your reply', placeholder: 'Write a reply' });
    const send = h('button', { type: 'submit', class: 'btn btn-primary btn-small reply-send', id: ids ? 'reply-submit' : null, text: 'Reply' });
    const form = h('form', { class: 'reply-form stack', id: ids ? 'reply-form' : null, novalidate: true }, ta, err, h('div', { class: 'actions left' }, send));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      if (!requireSession('reply')) return;
      if (!ta.value.trim()) return showError(err, 'Write something');
      showError(err, '');
      if (!await approve({ action: 'Reply', amount: FEE_ONLY })) return;
      busy(send, true, 'Replying… sealing');
      try {
        await api('POST', '/api/social/replies', { parent: parentID, body: ta.value });
        toast('Reply published', 'success');
        ta.value = '';
        busy(send, false);
        if (onDone) await onDone();
      } catch (ex) {
        busy(send, false);
        fail(ex, err);
      }
    });
    return form;
  }

  // Who voted, by profile name (linking to the profile) and weight.
  function voters(votes) {
    const list = (votes || []).filter((v) => Number(v.weight) !== 0);
    if (!list.length) return null;
    return h('p', { class: 'small post-voters', id: 'post-votes' }, 'Votes: ',
      list.slice(0, 50).map((v, i) => h('span', { class: 'post-voter', data: { voter: v.voter } }, i ? ', ' : '',
        authorEl(v.voter, v.voter_name), ' ' + pct(v.weight))),
      list.length > 50 ? ' and ' + (list.length - 50) + ' more' : '');
  }

  async function postPage(author, permlink) {
    const id = author + '/' + permlink;
    const r = await api('GET', '/api/social/post?id=' + encodeURIComponent(id));
    const p = r.post;
    let metaEl = meta(p, 'post-meta');
    const repliesTitle = h('h2', { id: 'replies-title', text: 'Replies (' + p.children + ')' });
    const replies = h('ul', { class: 'replies', id: 'replies' });
    const vote = voteControl(p, r.my_vote, (post) => { const m = meta(post, 'post-meta'); metaEl.replaceWith(m); metaEl = m; }, true);
    const form = replyForm(p.id, true, async () => {
      const n = await loadReplies(p.id, replies);
      if (n >= 0) {
        repliesTitle.textContent = 'Replies (' + n + ')';
        p.children = n;
        const m = meta(p, 'post-meta'); metaEl.replaceWith(m); metaEl = m;
      }
    });
    const parent = p.parent_id ? h('p', { class: 'small' }, h('a', { href: '#/social/post/' + p.parent_id, id: 'post-parent', text: 'In reply to ' + shortHash(p.parent_author, 6) + '/' + p.parent_permlink })) : null;
    const reward = p.reward
      ? h('p', { class: 'small', id: 'post-reward' }, 'Paid ' + fmtDate(p.reward.paid_at) + ': ', h('strong', { text: tokens(p.reward.author) }), ' to the author, ',
        h('strong', { text: tokens(p.reward.curation) }), ' to its curators.')
      : h('p', { class: 'small muted', id: 'post-reward' }, p.pending_reward
        ? 'Pending reward ≈ ' + tokens(p.pending_reward) + ', paid from the reward pool when the hour after ' + fmtDate(p.payout_at) + ' ends (75 % author, 25 % curators).'
        : 'Earns from the reward pool once it has upvotes; payout after ' + fmtDate(p.payout_at) + '.');
    const edit = p.author === me() && !p.paid_out
      ? h('button', { type: 'button', class: 'btn', id: 'post-edit-open', text: 'Edit', on: { click: () => openCompose('', p) } }) : null;
    render(h('section', { id: 'social-post', data: { id: p.id } },
      pageHead(p.title || (p.parent_id ? 'Reply' : '(untitled)'), '#/social', edit),
      h('article', { class: 'card post-full' },
        h('h2', { class: 'visually-hidden', id: 'post-title', text: p.title || '' }),
        parent, metaEl, tagChips(p.tags), h('div', { class: 'post-body', id: 'post-body' }, M.markdown(p.body)), reward, voters(r.votes), vote),
      h('div', { class: 'card' }, h('h2', { text: 'Reply' }), form),
      h('div', { class: 'card' }, repliesTitle, replies)));
    if (p.children > 0) await loadReplies(p.id, replies);
    else replies.appendChild(h('li', { class: 'muted small', id: 'replies-empty', text: 'No replies yet.' }));
  }

  /* ------------------------------------------------------------- apps */

  async function appsPage() {
    const r = await api('GET', '/api/social/grants');
    const grants = r.grants || [];
    const now = Date.now() / 1000;
    const list = h('ul', { class: 'grant-list', id: 'social-grants' }, grants.map((g) => {
      const revoke = h('button', { type: 'button', class: 'btn btn-danger btn-small grant-revoke', text: 'Revoke' });
      revoke.addEventListener('click', async () => {
        const ok = await confirmDialog({ title: 'Revoke ' + g.app_name + '?', message: g.app_name + ' will no longer be able to act for you. Things it already did stay.', yes: 'Revoke', danger: true });
        if (!ok) return;
        busy(revoke, true, 'Revoking… sealing');
        try {
          await api('POST', '/api/social/grants/revoke', { app: g.app });
          toast('Access of ' + g.app_name + ' revoked', 'success');
          appsPage().catch((ex) => fail(ex, null));
        } catch (ex) {
          busy(revoke, false);
          fail(ex, null);
        }
      });
      const expired = g.expired || g.expires_at <= now;
      return h('li', { class: 'grant', data: { app: g.app_name, expired: String(expired) } },
        h('div', { class: 'grant-main' },
          h('strong', { class: 'grant-name', text: g.app_name }),
          h('span', { class: 'mono small muted', title: g.app, text: shortHash(g.app, 6) }),
          h('div', { class: 'grant-scopes' }, g.scopes.map((s) => h('span', { class: 'chip grant-scope', data: { scope: s }, text: s === 'vote' ? 'vote for you' : 'post and reply for you' }))),
          h('span', { class: 'small muted' }, 'Granted ' + fmtDate(g.granted) + ' · ',
            expired ? h('span', { class: 'chip chip-expired', text: 'expired' }) : 'expires ' + fmtDate(g.expires_at))),
        revoke);
    }));
    render(h('section', { id: 'social-apps' },
      pageHead('Apps you authorized', '#/social'),
      h('p', { class: 'muted', text: 'These apps may sign posts, replies or votes for your account until they expire. Revoking takes effect with the next block.' }),
      h('div', { class: 'card' }, grants.length ? list
        : h('p', { class: 'muted', id: 'social-grants-empty', text: 'No app can act for you. Apps ask for access with "Sign in with Mosaic", which opens a consent page here.' }))));
  }

  /* ----------------------------------------------------------- router */

  M.social = { meta, authorEl, profileHref, tokens, age, fmtInt, pct, plural, postHref, tagChips, fail, requireSession, unlocked, me, approve, FEE_ONLY };

  routes.social = async function social(r) {
    if (r.parts[1] === 'post' && r.parts[2] && r.parts[3]) return postPage(r.parts[2], r.parts[3]);
    if (r.parts[1] === 'u' && r.parts[2]) return M.socialProfile(decodeURIComponent(r.parts[2]));
    if (r.parts[1] === 'apps') {
      if (!requireSession('see your apps')) return;
      return appsPage();
    }
    return feedPage(r);
  };
})();
