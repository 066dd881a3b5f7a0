/* Mosaic web app, view — Social profile (#/social/u/NAME-or-ID): an account's name, about,
 * reputation and rewards, with its posts, replies and votes; the owner edits the profile and
 * claims credited rewards. Readable without a wallet. Needs the framework files and social.js.
 *
 * Test hooks:
 *  #social-profile[data-id][data-name] #profile-name #profile-id #profile-about #profile-reputation
 *  #profile-rewards (#profile-reward-author #profile-reward-curation #profile-reward-pending[data-units])
 *  #profile-claim (owner, when something is pending) #profile-edit-open
 *  edit dialog: #profile-form #profile-name-input #profile-about-input #profile-error #profile-submit
 *  lists: #profile-posts #profile-replies #profile-votes (li[data-id]) and their .empty
 */
(function () {
  'use strict';
  const M = window.Mosaic;
  const { h, $, api, toast, dialog, field, errorBox, showError, busy, shortHash, fmtDate, render, pageHead, go } = M;

  function postItem(p) {
    const S = M.social;
    return h('li', { class: 'post-card', data: { id: p.id } },
      h('a', { class: 'post-title', href: S.postHref(p), text: p.title || (p.parent_id ? 'Reply' : '(untitled)') }),
      h('p', { class: 'post-excerpt', text: p.body + (p.body_truncated ? '…' : '') }),
      S.meta(p));
  }

  function voteItem(v) {
    const S = M.social;
    return h('li', { class: 'profile-vote', data: { id: v.id, weight: String(v.weight) } },
      h('span', { class: 'chip', text: S.pct(v.weight) }), ' ',
      h('a', { href: '#/social/post/' + v.id, text: v.is_reply ? 'a reply' : (v.title || '(untitled)') }),
      h('span', { class: 'small muted' }, ' by ', S.authorEl(v.author, v.author_name), ' · ' + S.age(v.time)));
  }

  function section(title, id, items, emptyText, make) {
    return h('div', { class: 'card' }, h('h2', { text: title }),
      items.length ? h('ul', { class: 'post-list', id }, items.map(make))
        : h('p', { class: 'muted small empty', id: id + '-empty', text: emptyText }));
  }

  function openEdit(a) {
    const err = errorBox('profile-error');
    const submit = h('button', { type: 'submit', class: 'btn btn-primary', id: 'profile-submit', text: 'Save profile' });
    const form = h('form', { id: 'profile-form', class: 'stack', novalidate: true },
      field({ id: 'profile-name-input', label: 'Name', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false', maxlength: 32,
        value: a.name || '', hint: '3–32 lowercase letters, digits and -. Unique: others find you by it.' }),
      field({ id: 'profile-about-input', tag: 'textarea', label: 'About', rows: 4, maxlength: 512, hint: 'At most 512 characters.' }),
      err, h('div', { class: 'actions' }, submit));
    $('#profile-about-input', form).value = a.about || '';
    let dlg = null;
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const name = $('#profile-name-input', form).value.trim().toLowerCase();
      const about = $('#profile-about-input', form).value;
      if (!/^[a-z0-9-]{3,32}$/.test(name)) return showError(err, 'A name is 3–32 lowercase letters, digits and -');
      if (new TextEncoder().encode(about).length > 512) return showError(err, 'About is at most 512 bytes');
      showError(err, '');
      if (!await M.social.approve({ action: 'Save your profile as \u201c' + name + '\u201d', amount: M.social.FEE_ONLY })) return;
      busy(submit, true, 'Saving… waiting for the block to seal');
      try {
        const r = await api('POST', '/api/social/profile', { name, about });
        toast('Profile saved', 'success');
        dlg.close();
        go('#/social/u/' + encodeURIComponent(r.account.name || r.account.client_id));
        M.route();
      } catch (ex) {
        busy(submit, false);
        M.social.fail(ex, err);
      }
    });
    dlg = dialog({ id: 'profile-dialog', title: 'Edit profile', body: form });
  }

  async function profilePage(who) {
    const S = M.social;
    const r = await api('GET', '/api/social/profile?account=' + encodeURIComponent(who));
    const a = r.account;
    const rw = a.rewards || { author: 0, curation: 0, pending: 0, claimed: 0 };
    const mine = r.mine && S.unlocked();
    const claim = mine && Number(rw.pending) > 0
      ? h('button', { type: 'button', class: 'btn btn-primary btn-small', id: 'profile-claim', text: 'Claim ' + S.tokens(rw.pending) }) : null;
    if (claim) claim.addEventListener('click', async () => {
      if (!await S.approve({ action: 'Claim your rewards', amount: S.tokens(rw.pending) + ' from the reward pool into your balance', to: 'Your wallet, from the social contract' })) return;
      busy(claim, true, 'Claiming… sealing');
      const reroute = M.rerouteHere();
      try {
        const c = await api('POST', '/api/social/claim', {});
        toast('Claimed ' + c.amount_tokens + ' MSC: it is in your wallet (Bolt shows the transaction)', 'success');
        reroute();
      } catch (ex) {
        busy(claim, false);
        S.fail(ex, null);
      }
    });
    const edit = mine ? h('button', { type: 'button', class: 'btn', id: 'profile-edit-open', text: a.name ? 'Edit profile' : 'Set up profile',
      on: { click: () => openEdit(a) } }) : null;
    render(h('section', { id: 'social-profile', data: { id: a.client_id, name: a.name || '' } },
      pageHead(a.name || 'Account ' + shortHash(a.client_id, 6), '#/social', edit),
      h('div', { class: 'card profile-card' },
        h('p', { class: 'profile-name' }, h('strong', { id: 'profile-name', text: a.name || 'No profile name yet' }),
          mine ? h('span', { class: 'chip', text: 'you' }) : null),
        h('p', { class: 'mono small muted profile-id', id: 'profile-id', text: a.client_id }),
        h('p', { class: 'post-body', id: 'profile-about', text: a.about || (mine ? 'Tell others about yourself with Edit profile.' : '') }),
        h('div', { class: 'post-meta small' },
          h('span', { id: 'profile-reputation', title: fmtIntTitle(a.reputation), text: 'Reputation ' + a.reputation_score }),
          h('span', { text: S.plural(a.post_count, 'post or reply', 'posts and replies') }),
          h('span', { text: 'Voting power ' + (a.voting_power / 100).toFixed(2) + ' %' }),
          a.created ? h('span', { text: 'since ' + fmtDate(a.created) }) : null),
        h('div', { class: 'profile-rewards', id: 'profile-rewards' },
          h('h2', { text: 'Rewards' }),
          h('p', { class: 'small' },
            h('span', { id: 'profile-reward-author', text: S.tokens(rw.author) + ' as author' }), ' · ',
            h('span', { id: 'profile-reward-curation', text: S.tokens(rw.curation) + ' as curator' }), ' · ',
            h('span', { id: 'profile-reward-pending', data: { units: String(rw.pending) }, text: S.tokens(rw.pending) + ' unclaimed' })),
          claim)),
      section('Posts', 'profile-posts', r.posts, 'No posts yet.', postItem),
      section('Replies', 'profile-replies', r.replies, 'No replies yet.', postItem),
      section('Votes', 'profile-votes', r.votes, 'No votes yet.', voteItem)));
  }

  function fmtIntTitle(r) { return 'Net rshares received: ' + M.social.fmtInt(r); }

  M.socialProfile = profilePage;
})();
