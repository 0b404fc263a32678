"""Facts from sentences: each number read by the label nearest before it, with its period, basis and scope.

The rules, each general and each seen in real notes:
- a number belongs to the nearest label before it in its sentence
  (`实现营业收入2355亿元，实现保费收入2166亿元`: 2166 is the premiums), and only the first number of the
  label's kind after it, close by, is settled by the label; a later or farther one is a `context`
  reading, for a model to choose (never a fact on its own);
- the words around it say what it is: a forecast (`预计`, `目标`, `2025E`), the prior period (`上年同期`),
  a change (`同比增长41.8%` after a revenue is its growth rate; `较上年减少7.97亿元` is no level at all);
- a number in a comparison or threshold clause (`超过500亿元`, `低于1亿元`, `市盈率不到7倍`, `50倍以上`) or a
  range (`1883.70万元–2260.44万元`) is no fact; `约831.42亿元` and `750亿元左右` are (approximate);
- the subject of the clause says whose it is: the company (`公司`, its name), a segment (`葵花籽实现营收`,
  `产险业务…净利润`, `均胜安全业务毛利率`, a part's heading `国内方面：`, `4）智能物流：16.95亿元…`, a margin
  after a part's sales `境外销售5.19亿，毛利率…`) or an industry (`厨电行业…`);
- a figure the writer restates (`还原…后，`, `若剔除…，`, `可比口径下`, `调整后`) is not the reported one;
- the period is the one the clause names (`2季度实现营业收入`), else the one the sentence opens with
  (`其中，2020年第二季度…；实现归母净利2.12亿元`; an aside stating only changes, `其中Q2同比增长6.6%；`,
  does not carry), else the document's own;
- a bare number right after a money label takes the unit its sentence's other amounts share
  (`营业总收入536,779.16万元，…，归属于上市公司股东的净利润106,783.12`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from lmscreen.task.context import (
    CLAUSE_BREAKS,
    PARAGRAPH_BREAK_RE,
    PRIOR_ASIDE_RE,
    SENTENCE_BREAKS,
    STOPS,
    SUBJECT_BREAKS,
    Reading,
)
from lmscreen.task.fact import TIER_CONTEXT, TIER_TEXT, Fact
from lmscreen.task.metrics import GROWTH_METRICS, METRICS, PE_METRICS, Label
from lmscreen.task.period_text import LAST_QUARTER, PeriodMention, previous, resolve
from lmscreen.task.periods import Period
from lmscreen.task.units import FOREIGN_CURRENCIES, Mention, printed_unit
from lmscreen.task.vocabulary import (
    CHANGE_RE,
    FORECAST_RE,
    INJECTION_RE,
    PRIOR_RE,
    SEGMENT_MARGIN_PREFIX_OK,
    level_after_change,
)
from lmscreen.task.words import whole_words

_LABEL_GAP = 30
_LABEL_GAP_ASCII = 48
_LOOSE_GAP = 60
_BARE_GAP = 8
ENUM_RE = re.compile(r"分别|依次|各为|各自|respectively", re.IGNORECASE)
_EXPECTATION_RE = re.compile(
    r"(?:符合|超|低于|高于|好于|不及|超出|略超|大超|略低于|略高于)(?:市场|我们的?|此前的?)?(?:一致)?预期"
)
"""`业绩符合预期`, `净利润增速高于我们预期`: a comparison with expectations, not a forecast."""
_RELATIVE_YEAR_RE = re.compile(r"明年|后年|今年|当年|来年|下一年|未来")
"""A year named by where it lies (`对应明年PE`): a plain PE beside it is a forecast's or a static one."""
_MIDPOINT_RE = re.compile(r"中值|中枢|中位值")
"""`全年净利润中值6.75亿元`: the midpoint of a forecast's range, an estimate, not the period's figure."""
_TAKE_MIDPOINT_RE = re.compile(
    r"(?:取|按|以|按照|若以)\s?(?:业绩)?(?:预告|预计|预测|指引)?(?:区间)?的?\s?(?:中值|中枢|中位数?|中间值|均值)"
)
"""`取业绩预告中值，2020年一季度公司实现归母净利润2.20亿元`: a figure the writer computes from a forecast's
range, not one the company reported (`业绩处于预告中枢` says where a reported figure fell: no such verb)."""
_EXPRESS_ESTIMATE_RE = re.compile(
    r"业绩快报(?:显示|披露)?[，,：:]?\s?(?:公司|本公司)?\s?"
    r"(?:(?:20)?[0-9]{2}\s?年?\s?(?:[HQ][1-4]|上半年|前三季度|全年|年度)?\s?)?(?:公司|本公司)?\s?预计"
)
"""`根据业绩快报，公司预计实现营业总收入1936.3亿元`: an express report's unaudited figures, printed with 预计,
are the period's actuals, not a forecast."""


def _expectations_blanked(text: str) -> str:
    """`text` with the words that look like a forecast's but are none blanked: a comparison with expectations
    (`符合预期`) and an express report's 预计 (`_express_estimates_blanked`)."""
    return _express_estimates_blanked(_EXPECTATION_RE.sub(lambda m: " " * len(m.group(0)), text))


def _express_estimates_blanked(before: str) -> str:
    """`披露业绩快报：2022年H1预计实现营收90.02亿元，…，预计实现归母净利润19.19亿元；`: an express report's
    figures printed with 预计, the first right after it and the others of the same `；` clause, blanked (they
    are the period's actuals, not a forecast)."""
    out = before
    for m in _EXPRESS_ESTIMATE_RE.finditer(before):
        stop = min([i for i in (before.find(ch, m.end()) for ch in "；;") if i >= 0] or [len(before)])
        out = out[: m.start()] + " " * (m.end() - m.start()) + out[m.end() :]
        out = out[: m.end()] + out[m.end() : stop].replace("预计", "  ") + out[stop:]
    return out


_OWN_ACCOUNTS_RE = re.compile(r"(?:经)?(?:公司)?财务部门(?:初步)?测算")
_PREANNOUNCED_RE = re.compile(r"预告|预增|预减|预盈|预亏|预计|预测|预期|预估|将实现")
"""A text naming a preannouncement or an expectation anywhere: its 财务部门测算 stays a forecast's mark."""
_PREANNOUNCING_VERB = r"(?<!业绩)预告(?:称|显示)?[：:]?\s?(?=(?:20[0-9]{2}|[0-9]{2})\s?年)"
"""`公司预告2022年实现营业总收入19.07亿元`: 预告 as the verb whose object is a year (not the noun of
`业绩预告`, nor `接近预告上限`): what follows is what the company preannounces, a forecast's point."""
_FORECAST_EXTRA_RE = re.compile(
    r"计划|目标|规划|力争|指引|预告区间|将实现|可望|料将|有望|预估|我们(?:计算|推算|估算)|经(?:我们)?(?:计算|推算)"
    r"|内部消息|传闻|据传|小道消息|" + _PREANNOUNCING_VERB
)
"""Beyond FORECAST_RE: plans and targets, and an analyst's own computation (`考虑还原运输成本…，我们计算2021年
综合毛利率…至29.96%`: a restated figure, not the one the report prints); a 业绩预告's figures and a rumour's
(`内部消息，明天晚上业绩预告，年报净利润33亿左右`), and a year's figures the company 预告s."""
_THRESHOLD_BEFORE_RE = re.compile(
    r"(?:低于|高于|超过|超出|不低于|不高于|不超过|不少于|不足|不到|少于|多于|大于|小于|至少|最多|最高|最低|突破|逾|超|破"
    r"|达不到|未达到|以上的|门槛|标准为|不得|须|应当"
    r"|below|above|exceed(?:s|ing)?|more than|less than|at least|over"
    r"|under|up to)\s*(?:人民币|RMB)?\s*$",
    re.IGNORECASE,
)
_IMPACT_GAP_RE = re.compile(
    r"的?(?:拖累|影响|贡献|增厚|摊薄|拉低|拉动|冲击|侵蚀|损失)(?:额|金额|数)?(?:为|达|约为|约|了|在)?\s*(?:人民币|RMB)?\s*$"
)
"""`对归母净利润的拖累为0.67亿元`: the size of an effect on the figure, not the figure."""
_IMPACT_LEAD_RE = re.compile(
    r"(?:影响|拖累|拉低|拉高|摊薄|增厚|侵蚀|减少|增加)了?\s?(?:本公司|公司|集团)?\s?(?:整体|综合|全年|当期)?\s?的?\s?$"
)
"""`造成公司采购成本上涨明显，影响公司整体毛利率约2%`: a verb of effect right before the label makes the
number the size of an effect on the figure, not the figure (`对…的影响为` after it: `_IMPACT_GAP_RE`)."""
_YEARS_COUNT_LEAD_RE = re.compile(
    r"(?:(?<![0-9A-Za-z])[1-9]|(?<![0-9A-Za-z〇零一二三四五六七八九十])(?:两|二|三|四|五|六|七|八|九|十))\s?(?:个)?\s?(?:年|年度)"
    r"(?:来|间|内|中)?\s?(?:累计|合计|共计?|总共|累积)?\s?$"
)
"""`3年亏损近50亿元`, `近三年累计实现营收…`: a count of years before the label, a sum over several years,
never one period's figure (`19年亏损` is a year: a count is one digit or a numeral word)."""
_THRESHOLD_AFTER_RE = re.compile(r"^\s*(?:以上|以下|以内|之上|之下|或以上|或以下|及以上|及以下|多|余|强)")
_APPROX_BEFORE_RE = re.compile(
    r"(?:约|大约|约为|接近|近|about|approximately|around|roughly)\s*(?:人民币|RMB)?\s*$", re.IGNORECASE
)
_APPROX_AFTER_RE = re.compile(r"^\s*(?:左右|上下)")
_RANGE_JOIN_RE = re.compile(r"^\s?[-~～至到]\s?$")
_TTM_RE = re.compile(r"TTM|滚动|trailing", re.IGNORECASE)
_PE_AFTER_RE = re.compile(
    r"-?[0-9][0-9.,]*\s?[xX×倍]\s?(?:(?:TTM|trailing)\s?(?:P/?E|PE|市盈率)|(?:P/?E|PE)\s?[(（]?TTM)",
    re.IGNORECASE,
)
_PE_NAMED_AFTER_RE = re.compile(
    r"-?[0-9][0-9.,]*\s?[xX×倍]\s?(?:[^\s,;，；。]{1,8}\s)?(?:P/?E|PE|市盈率)(?![A-Za-z])"
)
_EXCLUDED = {
    "revenue": r"利息净收入|(?<!营业)净收入|手续费|佣金|投资收益|其他收入|营业外收入|收入占比|占营业收入"
    r"|占比|比重|占$|海外收入|境外收入"
    r"|保险服务收入|预收|interest income|net interest|fee income|non-interest|net operating income",
    "net_profit": r"非经常性|经调整|调整后|营运利润|营业利润|利润总额|毛利|少数股东|非控股|税前|核心净利润"
    r"|每股"
    r"|经营活动|non-ifrs|non-gaap|adjusted|operating profit|pre-tax|pretax|core net profit|minority|per share"
    r"|EBITDA|EBIT"
    r"|gross profit",
    "gross_margin": r"毛利额|net margin|operating margin",
    "roe": r"总资产收益率|总资产回报率|ROAA|ROA(?![A-Za-z])|摊薄|营运|operating ROE",
    "pe": r"市净率|市销率|P/?B(?![A-Za-z])|P/?S(?![A-Za-z])|PEG|EV/EBITDA",
}
_EXCLUDED_RE = {k: re.compile(v, re.IGNORECASE) for k, v in _EXCLUDED.items()}
_FOREIGN_RE = re.compile("|".join(FOREIGN_CURRENCIES) + r"|USD|US\$|HK\$|HKD|EUR|KRW", re.IGNORECASE)
_SEGMENT_WORD_RE = re.compile(r"业务|板块|分部|子公司|分公司|事业部|segment", re.IGNORECASE)
_INDUSTRY_RE = re.compile(r"行业|市场|全国|全球|全行业|同行|industry|market", re.IGNORECASE)
_FILLER_RE = re.compile(
    r"追溯调整后|追溯调整|追溯后|追溯|可比口径下|同口径下|口径下"  # `追溯口径下`: a basis, no part
    r"|本公司|该公司|该股|上市公司|公司|可以看到|可以看出|可以发现|本集团|集团|本行|该行|我行|我们|报告期内|报告期|期内|本期|当期|全年|年度|其中|实现|完成"
    r"|取得|录得|累计|累积|合计|共计|整体|总计|总体|综合|同比|单季度?|单季|季度|分季度看|分季度|今年|前三季度|上半年|下半年"
    r"|宣布|宣告|公告|公告称|表示|称|据|报道|介绍|归属|未经审计|经审计|未审计|审计后|意味着|表明"
    r"|不过|但是|然而|因此|所以|从而|进而|由此|因而|而且|并且|上行|下行|上扬|攀升|回升|回落"
    r"|年初至本?报告期末|发布|公布|披露|报告|快报|年报|季报|半年报|中报|业绩|点评|事件|简评|摘要|显示|数据|最新|经营|主营"
    r"|受益于|得益于|主要|此外|另外|同时|首次|再次|继续|持续|稳步|大幅|小幅|分别|各|均|都|也|已|将|仍|再|又|并"
    r"|当前|目前|现在|最新|截至|截止|当日|收盘|对应|按|计算|口径|根据|以|从|看|层面|而言|来说"
    r"|上年同期|去年同期|上年|去年|同期|上期|预计|预测|预期|有望|测算|我们|估计|初步核算|核算|约|加权|平均|年化"
    r"|的|了|为|达|是|在|于|共|总|全|和|及|与|新|看|来看|方面|情况|来|中|末|初|年|月|日|期|度"
)
_LEVEL_VERBS = (
    r"增|降|提升|上升|下降|减少|增加|下滑|回升|扩大|收窄|提高|降低"
    r"|下行|上行|回落|攀升|下跌|上涨|抬升|缩窄|改善|增长|跃升|升|涨"
)
"""The verbs of a move to a new level (`由9.96%下行至9.62%`): the level after 至 is the figure."""
_YEAR_OF = r"(?:20[0-9]{2}\s?年(?:度|末)?的?\s?)?"
_FROM_OF = r"(?:(?:20[0-9]{2}\s?年(?:度|末|全年)?|上年同期|去年同期|上年|去年|上期)的?\s?)?"
_MOVE_SIZE = r"(?:\s?[0-9]+(?:\.[0-9]+)?\s?(?:pcts?|ppts?|pp|bps|个百分点|个pct|百分点)\s?)?"
"""The size of a rate's move, printed between its verb and 至 (`下降6.9ppt至`), or not."""
_FROM_LEVEL_RE = re.compile(
    r"(?:由|从)\s?" + _FROM_OF + r"-?[0-9][0-9.,]*\s?[%亿万元倍]*\s?(?:同比)?"
    r"(?:" + _LEVEL_VERBS + r")?" + _MOVE_SIZE + r"(?:至|到)\s?" + _YEAR_OF + "$",
    re.IGNORECASE,
)
"""`由16.32%增至20.87%`: the level after 至 is the label's own, whatever came before it; so in
`由2022年的22.1%降至2023年的15.6%` (each level with its year) and `由上年同期的53.56%下降到32.28%` (where it
came from named by the prior period's word)."""
_FROM_TO_RE = re.compile(r"(?:由|从)\s?(?:(?:20)?[0-9]{2}\s?年(?:度|全年)?\s?(?:的)?)?$")
"""`由`/`从` right before a figure, or before the year it is for (`整体毛利率从2019年66.6%…`)."""
_TO_AFTER_RE = re.compile(
    r"^\s?(?:同比)?(?:" + _LEVEL_VERBS + r")?" + _MOVE_SIZE + r"(?:至|到)",
    re.IGNORECASE,
)
"""What follows a from-figure: a move to the new level, its size given or not (`下降到`, `下降6.9ppt至`)."""
_SAME_PERIOD_LEAD_RE = re.compile(r"^\s?同期(?:内)?(?=[\u4e00-\u9fff]|$)")
"""`同期公司毛利率2.1%，同比下降19.7pcts`: a clause opening with a bare 同期 (no 上年/去年/较 before it) is
the period the text was just on, and the year-on-year change after the figure says it is this period's."""
_NAMED_YEAR_RE = re.compile(r"20[0-9]{2}\s?年")


def _year_named_before(before: str) -> bool:
    """`2020年公司营收入下滑37%至19.9亿元，…所致；同期公司归母净利润亏损1.35亿元`: a clause opening with a
    bare 同期 after clauses of its sentence that name a year, and no earlier year's words (上年, 去年, 同期
    itself), is that year's: the same period the sentence is on, not the year before it."""
    return _NAMED_YEAR_RE.search(before) is not None and PRIOR_RE.search(before) is None


_CHANGE_AFTER_RE = re.compile(r"^[，,（(]?\s?(?:同比|较上年|较去年|比上年|比去年|yoy)", re.IGNORECASE)
_BREAKDOWN_KINDS = r"(?:渠道|产品|业务|业态|地区|区域|板块|品类|行业|模式|市场|事业部)"
_BREAKDOWN_RE = re.compile(
    r"分" + _BREAKDOWN_KINDS + r"(?:来)?看|(?<![\u4e00-\u9fff])分" + _BREAKDOWN_KINDS + r"\s?[，,：:]"
)
"""`分渠道来看，…`, `(A)分业态，…`: the sentence breaks the company's figures down; the figures in it are a
segment's (`部分产品，` is no breakdown)."""
_BUSINESS_RE = re.compile(
    r"^(?:公司|本公司)?([\u4e00-\u9fffA-Za-z]{1,12}?(?:业务|板块|分部|品类|渠道|产品线|子公司|事业部))"
)
_TOTAL_WORD_RE = re.compile(r"主营业务|全部业务|整体业务|各项业务|各业务|所有业务")
_COMPARED_RE = re.compile(
    r"较|比|相比|同比|对比|相较|超过|超越|高于|低于|小于|大于|快于|慢于|优于|好于|弱于|强于|不及|vs",
    re.IGNORECASE,
)
_HIGHER_LOWER_RE = re.compile(
    r"(?:明显|显著|远|略|大幅|均|皆|仍)?(?:高于|低于|超过|超越|大于|小于|优于|好于|弱于|强于|不及)"
)
"""`…，明显高于公司整体毛利率35%`: a comparison whose other side is a labelled figure (not `比` / `较`, which
also sit inside words: `可比公司`, `较同期`)."""
_COMPARED_END_RE = re.compile(r"(?:" + _COMPARED_RE.pattern + r")(?:于|的)?\s?$", re.IGNORECASE)


def compared_base(folded: str, period: PeriodMention, lo: int) -> bool:
    """Whether a period mention is the base a comparison is measured from (`较2020年`, `环比上半年`): the few
    characters before it, from `lo` on, end on a comparison's word. Such a period dates no figure."""
    return bool(_COMPARED_END_RE.search(folded[max(lo, period.start - 4) : period.start]))


def _one_period(folded: str, named: list[PeriodMention], lo: int) -> bool:
    """Whether the periods `named` from `lo` on, comparison bases aside, all name the first one's period."""
    return all(p.period == named[0].period for p in named[1:] if not compared_base(folded, p, lo))


"""A comparison right before a period (`较上半年`, `小于上半年水平`), not one that ended earlier
(`同比转正2020年前三季度，…`)."""
_OWNER_RE = re.compile(r"归属于?[^，。；,;]{0,16}?(?:股东|所有者|权益持有人)的?")
"""`归属于上市公司股东的`, `归属上市公司\n股东的` (a PDF's wrap): whose profit, no segment's name."""
_COMPANY_METRICS = frozenset(
    {"roe", "roe_deducted", "eps", "pe_ttm", "pe_dynamic", "pe_static", "pe_forward"}
)
_COMPANY_LABEL_RE = re.compile(r"综合|整体|合并|公司|集团|归属于|归母|营业总收入")
_OWNER_LABEL_RE = re.compile(r"归属于|归属|归母")
"""A profit label naming the parent's shareholders as its owners (`归母净利润`, `归属于…股东的净利润`)."""
_COMPANY_RE = re.compile(r"公司|集团|本行|我行|该行|全行|本集团|上市公司")
_CIRCUMSTANCE_COMPANY_RE = re.compile(
    r"(?:^|[^\u4e00-\u9fff]|下|是|使得?|致使|促使|导致|带动|带来|推动|拉动|(?<![青少成同])年|季度)"
    r"(?:本公司|该公司|公司|本集团|本行|该行)(?:综合|整体)?\s?$"
)
"""`低单价下公司毛利率承压`, `…，使得公司综合毛利率由…`: the company named right before the label, after a
circumstance (`…下`), a cause's verb (`使得`), a period (`销售毛利率略降21年公司营业收入为…`: a heading glued
to the sentence) or nothing, is the clause's subject (the circumstance, the verb or the heading is no
segment); `子公司毛利率` is not matched."""
_COMPANY_LINE_RE = re.compile(
    r"^(?:公司|本公司)(?P<name>[\u4e00-\u9fffA-Za-z]{2,10}?)(?:保持|延续|维持|继续|持续)"
    r"(?:了)?(?:稳健|快速|高速|较快|良好|稳定|强劲)?(?:的)?(?:增长|增势|发展)"
)
_COMPANY_YEAR_LEAD_RE = re.compile(r"^(?:本公司|公司)\s?(?:20[0-9]{2}|[0-9]{2})\s?年(?:度|全年)?\s?")
_TOPIC_RE = re.compile(r"^[\u4e00-\u9fff]{1,10}?(?:品类|业务|板块|分部|系列|子公司|分公司|事业部|产品线?)")
_TALLY_TOPIC_RE = re.compile(r"^(?P<name>[\u4e00-\u9fffA-Za-z]{2,10}?)(?:共计|累计|合计)")
"""A sentence opening on someone's tally (`印象丽江共计演出347场，…，实现营业收入7660.08万元`): that one's
figures, unless it is the company (a company word or one of the text's names)."""
_REGION_TOPIC_RE = re.compile(
    r"^(?:北美洲|南美洲|大洋洲|欧洲|亚洲|非洲|亚太|拉美|北美|欧美|海外|境外|国外|国内|境内|内销|外销|出口"
    r"|华东|华南|华北|华中|西南|西北|东北)(?:地区|市场|区域|业务)?(?![\u4e00-\u9fff]{0,2}(?:和|及|与|、))"
)
"""A sentence opening on a region or market (`北美洲由于疫情反复，…，上半年实现收入1.52亿元`): the figures
of a sentence about one region are that region's."""
_INDUSTRY_TOPIC_RE = re.compile(
    r"^(?!受|随着|由于|因|在|得益|伴随|叠加|考虑|基于|依托|借助|面对|面临)[\u4e00-\u9fff]{0,8}?行业(?!绩)"
)
"""A sentence opening on an industry (`起重机行业CR3占比95.9%+，行业竞争充分，…，
毛利率恢复至27%左右`) and naming no company word before the label: a figure whose own clause
names no one is the industry's. Not a cause or circumstance opening the sentence (`受益于行业需求回暖，
毛利率…`: the company's), nor a sentence whose clauses turn to the company's own doing (`白酒行业景气度高，
实现营收…，毛利率…`)."""
_OWN_DOING_RE = re.compile(r"(?:^|[，,；;])\s?(?:实现|录得|完成|取得)")
_MAIN_BUSINESS_TOPIC_RE = re.compile(
    r"^(?:[0-9一二三四五六七八九十]{1,2}\s?[)）、.．]\s?)?主业(?!务)[\u4e00-\u9fff]{2,6}?(?=产能|业务|板块|收入|营收|销量|实现)"
)
"""`1）主业垃圾焚烧产能集中释放，…，实现营业收入同比+38.99%，毛利率为54.25%`: a sentence opening on the main
business by name is that business's, not the whole company's."""
_AMONG_TOPIC_RE = re.compile(
    r"^其中[，,]?\s?(?P<name>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:的)?"
    r"(?=增长|增速|表现|收入|营收|销售|销量|实现|同比|延续|保持|继续|持续|大幅|快速|稳步|高速|贡献)"
)
"""`…新品类发展良好…。其中洗碗机增长强劲，…`: a sentence opening on 其中 and a name is about that one part of
what the text just listed (not `其中20Q4营收…`, a period, nor `其中公司…`)."""
_DRIVE_VERBS = r"带动|拉动|推动|驱动|助推"
"""Verbs of a cause that drives a figure (`带动整体毛利率…`); with 导致 / 使 / 促使 / 致使, any cause's."""
_CAUSE_VERBS = _DRIVE_VERBS + r"|导致|使得?|促使|致使"
_DRIVES_WHOLE_RE = re.compile(r"(?:" + _CAUSE_VERBS + r")(?:公司)?\s?$")
"""`其中A业务毛利率提升8.3pcts，带动整体毛利率…`, `主营业务成本…增长33.8%，使得整体毛利率…`: what drives or
causes the overall figure; the overall one (`整体`, `综合`) is the company's, not the part's the clause before
names, and the verb is no part's name."""
_PARTS_AS_CAUSE_RE = re.compile(
    r"(?:受|由于|因)(?:到)?(?:以上|上述|前述)[^，,。；;]{0,12}(?:因素|影响|调整|变化)(?:影响)?(?:所致)?[，,]?"
)
"""`受到以上板块调整因素，2020年毛利率为…`, `受上述业务结构变化影响，毛利率…`: a clause that names the
parts just reviewed as the cause of an unnamed figure gives the whole's figure they moved, not a part's."""
_ASCII_RUN_RE = re.compile(r"[\x00-\x7f]+")
_PUNCT_RE = re.compile(r"[、，,：:；;（）()“”\"'《》\[\]【】—\-·/\\\s]+")


_CLOSED_ASIDE_RE = re.compile(r"[（(][^（()）]*[）)]")


def _asides_blanked(gap: str) -> str:
    """`毛利率：Q1为43.61%（去年同期35.82%）、Q2为46.11%`: an aside closed before the figure holds another
    figure's prior (its 去年同期), not this one's."""
    return _CLOSED_ASIDE_RE.sub(lambda m: " " * len(m.group(0)), gap)


def _subject(reading: Reading, label: Label) -> tuple[str, str | None]:
    """Whose figure the label's clause names: (`company` | `segment` | `industry` | `parent`, the name).

    A clause that names no one takes the subject of the nearest earlier clause of its sentence that does
    (`＂体育＂营业收入为12.4亿元，营收占比为62.2%，毛利率为43.8%`: the margin is 体育's too), else the
    segment its sentence is about (`_topic`)."""
    if reading.statements.in_parent(label.start):
        return "parent", "母公司"  # a row of `母公司利润表` / `银行利润表`: the parent company alone
    item = reading.digest_item(label.start)
    if item is not None and not any(a in item or item in a for a in reading.digest_own):
        # a digest's item on another company (`【巨星科技业绩快报：…】巨星科技公告，…`)
        return "segment", item
    referred = _referred_company(reading, label)
    if referred is not None:
        return "segment", referred
    owner = _subsidiary_owner(reading, label)
    if owner is not None:
        return "segment", owner
    if label.text.startswith(("整体", "综合")) and _DRIVES_WHOLE_RE.search(
        reading.folded, max(0, label.start - 6), label.start
    ):
        return "company", None  # `其中非晶合金毛利率同比提升8.3pcts，带动整体毛利率…达到26.81%`: the whole's
    target = _acquired_subject(reading, label) or _introduced_entity(reading, label)
    if target is not None:
        return "segment", target
    scope, segment, explicit = _own_subject(reading, label)
    if explicit or label.text.isascii():
        return scope, segment
    collective = _collective_topic(reading, label.start)
    if collective is not None:
        return "industry", collective
    for earlier in reversed(reading.labels_in(reading.stop_start(label.start, 200), label.start)):
        # `…其实现营业收入102.27亿元，同比减少12.87%；归属于上市公司股东的净利润0.67亿元`: still 其's
        carried = _referred_company(reading, earlier)
        if carried is not None:
            return "segment", carried
        if _own_subject(reading, earlier)[2]:
            break
    subsidiary = (
        _subsidiary_item(reading, label.start)
        or _other_company_before(reading, label)
        or _report_subject(reading, label)
        or _appositive_subject(reading, label)
        or _series_subject(reading, label)
    )
    if subsidiary is not None:
        return "segment", subsidiary
    stop_lo = reading.stop_start(label.start, 160)
    if label.text.startswith("整体") and label.metric not in _COMPANY_METRICS:
        # `公司数据中心业务实现收入28.18亿元，…，整体毛利率为30.89%`: the business's overall margin
        for earlier in reversed(reading.labels_in(stop_lo, label.start)):
            e_scope, e_segment, e_explicit = _own_subject(reading, earlier)
            if e_explicit:
                if (
                    e_scope == "segment"
                    and _SEGMENT_WORD_RE.search(e_segment or "")
                    and not _company_clause_between(reading, earlier.end, label.start)
                ):
                    return e_scope, e_segment
                break
    if label.metric in _COMPANY_METRICS or _COMPANY_LABEL_RE.match(label.text):
        return "company", None  # `…业务毛利率23.87%，综合毛利率24.44%，加权平均净资产收益率…`: the company's
    if _PARTS_AS_CAUSE_RE.search(reading.folded, reading.stop_start(label.start, 60), label.start):
        return "company", None  # `受到以上板块调整因素，2020年毛利率为74.93%`: the whole the parts moved
    for earlier in reversed(reading.labels_in(stop_lo, label.start)):
        if _TABLE_ROW_AFTER_RE.match(reading.folded, earlier.end):
            break  # `每股现金流量1.141.951.98…投资要点事件：公司公布2020年年报，2020年实现营业收入…`
        e_scope, e_segment, e_explicit = _own_subject(reading, earlier)
        if e_explicit:
            main_business = _main_business_subject(reading, earlier, e_scope, e_segment)
            if label.metric == "gross_margin" and main_business:
                # `19H1主营业务营收同增7.7%至104.2亿；毛利率提升0.6pct至42.7%`: the main business's margin,
                # the company's (ranked below a plain company margin, as `主营业务毛利率` is)
                return "company", "主营业务"
            if e_scope == "segment" and _DEDUCTION_QUALIFIER_RE.fullmatch(e_segment or ""):
                # `扣除非经常性损益后归母净利润3.54亿元，同比增长5.19%；毛利率29.96%`: the deduction qualifies
                # that profit; it is no part whose figures go on
                return "company", None
            return e_scope, e_segment
    if label.metric == "gross_margin":
        income = (
            _business_income(reading, stop_lo, label.start)
            or _segment_sales(reading, stop_lo, label.start)
            or _product_price(reading, stop_lo, label.start)
        )
        if income is not None:
            return "segment", income
        business = _business_subject(reading, label.start)
        if business is not None:
            return "segment", business
    return _topic(reading, label.start)


_TABLE_ROW_AFTER_RE = re.compile(r"\s?(?:[(（][^()（）]{0,8}[)）])?\s?-?[0-9,]*\.[0-9]+[0-9,%\-]*\.[0-9]")
"""A table row's numbers right after its label, run together with two or more decimal points and no word
(`每股现金流量1.141.951.98`, as a PDF extractor prints a table with no line breaks): the row names no subject
for the prose after it, so a later label takes none from it."""
_OWNER_NAME_RE = re.compile(r"归属于?(?P<name>[\u4e00-\u9fffA-Za-z]{2,12}?)(?:股东|所有者|权益持有人)")
_GENERIC_OWNERS = frozenset(
    {"上市公司", "母公司", "公司", "本公司", "本行", "本集团", "集团", "挂牌公司", "发行人"}
)
_SUBSIDIARY_WORD_RE = re.compile(r"子公司|附属公司|控股公司|下属公司")


def _subsidiary_owner(reading: Reading, label: Label) -> str | None:
    """`…披露间接全资附属公司上海世茂建设有限公司…的财务资料摘要。…归属于世茂建设股东的净亏损171.13亿`: a
    profit owed to the shareholders of a company the text introduced as a subsidiary is that subsidiary's."""
    m = _OWNER_NAME_RE.match(label.text)
    if m is None or m.group("name") in _GENERIC_OWNERS:
        return None
    name = m.group("name")
    if any(name in alias for alias in reading.aliases):
        return None  # the company itself (`归属于万科股东`), not a longer name holding it (`世茂建设`)
    folded = reading.folded
    for word in _SUBSIDIARY_WORD_RE.finditer(folded, 0, label.start):
        if name in folded[word.end() : word.end() + len(name) + 12]:
            return name
    return None


def _main_business_subject(reading: Reading, label: Label, scope: str, segment: str | None) -> bool:
    """Whether the label's own clause names the main business as a whole (`主营业务营收`), which the
    subject reading leaves as a part with a word for the whole business (`主营业务`)."""
    if scope != "segment" or segment is None or not _whole_business(segment):
        return False
    lo = reading.start_of(label.start, SUBJECT_BREAKS, 40)
    return "主营业务" in reading.folded[lo : label.start]


_ITEM_BREAK_RE = re.compile(r"[；;]")
_SUBSIDIARY_LEAD_RE = re.compile(
    r"\s?(?:[(（]?[0-9一二三四五六七八九十]{1,2}\s?[)）、.．]?\s?)?(?:其中[，,]?\s?)?"
    r"(?:[\u4e00-\u9fffA-Za-z]{2,10}?(?:公告|披露|表示|宣布)[称]?[，,：:]\s?)?(?:公司|本公司)?(?:旗下)?"
    r"(?:控股|全资|参股|下属|重要|核心)?子公司(?P<name>[\u4e00-\u9fffA-Za-z]{0,12})"
)
"""An item opening on a subsidiary (`③控股子公司紫光云公司…`), also after the announcement's opening
(`中金公司公告，子公司中金财富2022年1-6月实现营业收入…`)."""
_OWNED_SUBSIDIARY_LEAD_RE = re.compile(
    r"\s?(?P<owner>[\u4e00-\u9fffA-Za-z]{2,12}?)(?:旗下)?的?(?:控股|全资|参股|下属|重要|核心)?子公司"
    r"(?P<name>[\u4e00-\u9fffA-Za-z]{0,12})"
)
"""An item opening on a subsidiary named after its owner (`东方财富子公司东方财富证券股份有限公司披露…`); the
owner must be one of the company's names (checked by the caller), so `公司及子公司` is not matched."""

_AMONG_PART_LEAD_RE = re.compile(
    r"\s?其中[，,]?\s?(?P<name>[\u4e00-\u9fffA-Za-z]{1,10}?(?:业务|板块|分部|事业部|品类|产品线))"
)
"""`；其中创新业务…`: an item opening on 其中 and a business's name breaks the figures before it down."""
_NUMBERED_ITEM_BREAK_RE = re.compile(r"[；;：:]")
_NUMBERED_PART_LEAD_RE = re.compile(
    r"\s?[(（]?[0-9一二三四五六七八九十]{1,2}\s?[)）、.．]\s?(?:公司|本公司)?"
    r"(?P<name>[\u4e00-\u9fffA-Za-z]{1,10}?(?:业务|板块|分部|事业部|品类|产品线))"
)
"""`：1）互联网家装业务继续亏损，…`: a numbered item opening on a business's name."""


_SUBSIDIARY_MARK_RE = re.compile("子公司")


def _introduced_subsidiary(reading: Reading, item_lo: int, pos: int) -> str | None:
    """`控股子公司新郑煤电停产；新郑煤电…，营业收入12.86亿元`: an item that opens on the name of a company the
    text introduced before as a subsidiary (`子公司` right before the same name) is about that subsidiary."""
    folded = reading.folded
    lo = item_lo
    while lo < pos and folded[lo] in " \t":
        lo += 1
    marks = reading.matches_before(_SUBSIDIARY_MARK_RE, lo)
    for size in range(min(12, pos - lo), 1, -1):
        name = folded[lo : lo + size]
        if not re.fullmatch(r"[\u4e00-\u9fffA-Za-z]+", name) or _GENERIC_COMPANY_RE.search(name):
            continue
        if reading.names_company(name):
            return None
        if any(folded.startswith(name, m.end(), lo) for m in marks):
            return name  # `子公司` and the name, both before the item
    return None


def _subsidiary_lead(reading: Reading, item_lo: int, hi: int) -> str | None:
    """The subsidiary the item from `item_lo` opens on (`子公司中金财富`), or None."""
    m = _SUBSIDIARY_LEAD_RE.match(reading.folded, item_lo, hi)
    if m is not None:
        return "子公司" + m.group("name")
    owned = _OWNED_SUBSIDIARY_LEAD_RE.match(reading.folded, item_lo, hi)
    if owned is not None and owned.group("owner") in reading.aliases:
        # `东方财富子公司东方财富证券…披露2021年度…财务报表，实现营业总收入73亿元`: the company's subsidiary
        # opens the item, so its figures are that subsidiary's, as after `<company>公告，子公司…`
        return "子公司" + owned.group("name")
    return None


def _subsidiary_item(reading: Reading, pos: int) -> str | None:
    """`③控股子公司紫光云公司积极拓展行业云，…，上半年实现营业收入3.92亿元，归母净利润-2590.94万元`: an item
    of a sentence (after `；`, its number folded to a bare digit) that opens on a subsidiary is about that
    subsidiary, so its figures whose own clause names no one are the subsidiary's, even under a company-wide
    label such as 归母 (the subsidiary's own profit to its owners)."""
    folded = reading.folded
    lo = reading.start_of(pos, STOPS, 200)
    breaks = list(_ITEM_BREAK_RE.finditer(folded, lo, pos))
    item_lo = breaks[-1].end() if breaks else lo
    lead = _subsidiary_lead(reading, item_lo, pos)
    if lead is not None:
        return lead
    if breaks and not folded[item_lo:pos].strip():
        # `…子公司东方财富证券…实现营业总收入73亿元，同比增长58.76%；净利润48.25亿元`: an item that is only
        # its label goes on with the item before it, so a subsidiary opening that one still holds
        prev_lo = breaks[-2].end() if len(breaks) > 1 else lo
        lead = _subsidiary_lead(reading, prev_lo, breaks[-1].start())
        if lead is not None:
            return lead
    named = _introduced_subsidiary(reading, item_lo, pos)
    if named is not None:
        return "子公司" + named
    part = _AMONG_PART_LEAD_RE.match(folded, item_lo, pos)
    if part is None:
        # `…三方面因素影响：1）互联网家装业务继续亏损，上半年实现净利润-0.14亿元；2）…`: a numbered
        # item (after `：` too) that opens on a business by name is about that business
        colons = list(_NUMBERED_ITEM_BREAK_RE.finditer(folded, lo, pos))
        part = _NUMBERED_PART_LEAD_RE.match(folded, colons[-1].end() if colons else lo, pos)
    if part is None or _whole_business(part.group("name")) or _COMPANY_RE.search(part.group("name")):
        return None
    return part.group("name")  # `；其中创新业务经多年布局…，实现收入7605万元`: one business of the company's


_OTHER_COMPANY_RE = re.compile(r"[\u4e00-\u9fffA-Za-z]{2,10}(?:股份|集团|控股|公司|银行|证券|保险)")


def _other_company_before(reading: Reading, label: Label) -> str | None:
    """`其中上柴股份2020年实现营业收入61.31亿元，归母净利润2.03亿元`: a label whose own clause names no one,
    after a label in the same item (since the sentence's start or its last `；`) whose clause names another
    company by its name (not one of this text's names for itself), is that company's figure too, even 归母
    or a company-wide ratio: it is the other company's own."""
    folded = reading.folded
    lo = reading.start_of(label.start, STOPS, 200)
    breaks = list(_ITEM_BREAK_RE.finditer(folded, lo, label.start))
    item_lo = breaks[-1].end() if breaks else lo
    for earlier in reversed(reading.labels_in(item_lo, label.start)):
        scope, name, explicit = _own_subject(reading, earlier)
        if not explicit:
            continue
        if scope != "segment" or name is None or _SEGMENT_WORD_RE.search(name):
            return None
        if not _OTHER_COMPANY_RE.fullmatch(name) or any(a in name for a in reading.aliases):
            return None
        return name
    return None


_REPORT_SUBJECT_RE = re.compile(
    r"(?P<name>[A-Z][A-Za-z0-9&.\-]{1,15}|[\u4e00-\u9fffA-Za-z]{2,10}(?:股份|集团|控股|有限公司|银行|证券|保险))"
    r"\s?(?:的)?\s?(?:20[0-9]{2}\s?年|[0-9]{2}\s?年)?\s?(?:第?[一二三四1-4]\s?季度?报告?|[一二三四1-4]季报|Q[1-4]\s?季?报"
    r"|半年报|中报|年报|财报|半年度报告|年度报告)"
)
_GENERIC_COMPANY_RE = re.compile(
    r"^(?:本|该|我|贵|其|上市|母|子|参股|控股)?公司$|(?:本|该|我|贵)(?:公司|集团|银行)|^(?:根据|依据|按照|据|从|在|由于|受)"
)
"""A company word, not a name (`本集团年报`), or a lead-in before one (`根据…年报`): no one else's report."""


def _report_subject(reading: Reading, label: Label) -> str | None:
    """`ASML二季报也极其出色，净销售额54亿欧元，毛利率为49.1%`: a sentence that opens on another company's
    report (a Latin name or a name ending in 股份, 集团, 银行, 有限公司…, then 年报, 二季报, 财报…) holds
    that company's figures, not the text's company's (one of the text's names, or 公司/本公司, is its own)."""
    lo = _sentence_lo(reading, label.start)
    m = _REPORT_SUBJECT_RE.match(reading.folded, lo, label.start)
    if m is None:
        return None
    name = m.group("name")
    if name.upper() in _NOT_A_LATIN_NAME or _GENERIC_COMPANY_RE.search(name):
        return None
    if reading.names_company(name):
        return None
    return name


_APPOSITIVE_OPENER_RE = re.compile(
    r"[^\w，,。；;]{0,3}(?P<name>[\u4e00-\u9fff]{2,10}?|[A-Za-z][A-Za-z0-9&\-]{1,20})\s?(?:为|是)(?:一家)?"
    r"[^，,。；;：:]{0,24}?(?:公司|企业)(?:[(（][^)）]{0,20}[)）])?[，,]"
)


def _appositive_subject(reading: Reading, label: Label) -> str | None:
    """`EndyMed为以色列上市公司（ENDY.TA），2019年度营收1.13亿元，净利润1203万元` in a note on the
    company buying it: a sentence that opens by saying what someone is (`<名>为…公司，`, `<名>是一家…企业，`)
    holds that one's figures, not the text's company's, unless the name is one of the text's names for its
    company (or a bare 公司/本公司) or the figure's own clause names the company. A bullet glyph a PDF's
    list leaves before the name (`\uf0d8EndyMed为…`) is skipped."""
    folded = reading.folded
    lo = _sentence_lo(reading, label.start)
    m = _APPOSITIVE_OPENER_RE.match(folded, lo, label.start)
    if m is None:
        return None
    name = m.group("name")
    if _GENERIC_COMPANY_RE.search(name) or reading.names_company(name):
        return None
    own = folded[reading.start_of(label.start, CLAUSE_BREAKS, 40) : label.start]
    if any(a in own for a in reading.aliases):
        return None
    return name


def _series_subject(reading: Reading, label: Label) -> str | None:
    """`招股书显示，2019年到2020年，Soul App的营收分别为人民币7070万元、4.98亿元。2021年第一季度营收为人民币
    2.38亿元`: a sentence that opens on a period and goes straight to its label, right after a sentence
    (in the same paragraph) whose label of the same metric names someone other than the company, goes on
    with that one's series of the metric: the figure is that one's too, not the company's. A sentence
    naming anything before its label, a label naming the whole (综合, 归母…), one after a paragraph break,
    after a sentence naming no other period (a series runs over periods), or after a label printing no
    figure starts afresh."""
    folded = reading.folded
    sent_lo = _sentence_lo(reading, label.start)
    if sent_lo == 0 or folded[sent_lo - 1] not in "。；;" or _COMPANY_LABEL_RE.match(label.text):
        return None  # `2025Q1的综合毛利率28.83%`: a label naming the whole is the company's
    lead = _blank_periods(reading, folded[sent_lo : label.start], sent_lo, label.start)
    own = [p.period for p in reading.periods_in(sent_lo, label.start) if p.kind != "date"]
    if lead.strip(" ，,的") or not own:
        return None
    prev_lo = _sentence_lo(reading, sent_lo - 1)
    earlier = [p.period for p in reading.periods_in(prev_lo, sent_lo - 1) if p.kind != "date"]
    if not earlier or any(p in own for p in earlier):
        return None  # a series runs over other periods; `B端毛利率…54%。2024H1毛利率…`: no series
    same = [lab for lab in reading.labels_in(prev_lo, sent_lo - 1) if lab.metric == label.metric]
    if not same or not reading.mentions_in(same[-1].end, reading.end_of(same[-1].end, CLAUSE_BREAKS, 60)):
        return None  # `…业务保持高增速且毛利率稳步提升。`: a label with no figure of its own starts no series
    scope, name, explicit = _own_subject(reading, same[-1])
    if not explicit or scope != "segment" or name is None or reading.names_company(name):
        return None
    return name


def _sentence_lo(reading: Reading, pos: int) -> int:
    """Where the sentence holding `pos` starts, past the blanks that open it."""
    folded = reading.folded
    lo = reading.start_of(pos, STOPS, 160)
    while lo < pos and folded[lo] in " \t":
        lo += 1
    return lo


def _business_subject(reading: Reading, pos: int) -> str | None:
    """`公司创新业务属于运营服务类业务，…，毛利率为84%`: a margin no one is named for, in a sentence whose
    subject is one of the company's businesses (its first clause, with no figure of its own), is that
    business's."""
    folded = reading.folded
    lo = _sentence_lo(reading, pos)
    first_end = reading.end_of(lo, CLAUSE_BREAKS, 40)
    if first_end >= reading.start_of(pos, SUBJECT_BREAKS, 60) or reading.labels_in(lo, first_end):
        return None
    m = _BUSINESS_RE.match(folded[lo:first_end])
    if m is None or _TOTAL_WORD_RE.search(m.group(0)) or m.group(1).startswith(("公司", "本公司")):
        return None
    item_lo = max(folded.rfind(ch, first_end, pos) for ch in "；;") + 1
    if item_lo > 0:
        first = reading.periods_in(item_lo, pos)
        if first and not folded[item_lo : first[0].start].strip():
            # `随着子公司宜兴硅谷的产能释放…，Q1业绩实现稳健增长；Q1实现毛利率29.67%`: a `；` item opening
            # on a period starts afresh; the business the sentence opened on is not its subject
            return None
    return m.group(1)


_PRODUCT_PRICE_RE = re.compile(r"([\u4e00-\u9fff]{1,6}?)(?:单位售价|销售均价|出厂价|吨均价|吨价|售价)")
_NOT_A_PRODUCT_RE = re.compile(r"公司|产品|整体|综合|平均|主要|各类|其")
_BENEFIT_LEAD_RE = re.compile(r"^(?:受益于|得益于)")
"""`受益于青花系列放量，Q3毛利率…`: what the figure gained from opens the sentence; it is no topic."""
_LEAD_VERB_RE = re.compile(r"^(?:实现了?|带动|推动|受益于?|由于|得益于|随着|叠加)")


def _product_price(reading: Reading, lo: int, pos: int) -> str | None:
    """`实现了石膏板单位售价上升且单位销售成本下降，毛利率提升至37.26%`: a margin no one is named for,
    after a named product's selling price in its sentence, is that product's (the price of one product
    moves its own margin; `产品售价`, `公司售价` name the whole, and input prices such as `原材料价格` are
    no product's)."""
    found = list(_PRODUCT_PRICE_RE.finditer(reading.folded, lo, pos))
    if not found:
        return None
    name = _LEAD_VERB_RE.sub("", found[-1].group(1))
    if len(name) < 2 or _NOT_A_PRODUCT_RE.search(found[-1].group(1)):
        return None
    return name


_INCOME_WORD_RE = re.compile(r"([\u4e00-\u9fff]{1,6}收入)\s?(?:为|达到?|约|了)?\s?-?[0-9]")
_WHOLE_INCOME_RE = re.compile(r"营业|主营|总|全部|整体|合计|公司")


def _business_income(reading: Reading, lo: int, pos: int) -> str | None:
    """`贡献发电收入7.51亿元，同比增加58.63%；毛利率近56%`: a margin no one is named for, after a
    business's own income (no revenue label of ours, not the whole's) in its sentence, is that business's."""
    found = list(_INCOME_WORD_RE.finditer(reading.folded, lo, pos))
    if not found:
        return None
    m = found[-1]
    if _WHOLE_INCOME_RE.search(m.group(1)[-4:]) or any(
        lab.metric == "revenue" for lab in reading.labels_in(m.start(1), m.end(1))
    ):
        return None
    return m.group(1)


_REGION_AMOUNT_RE = re.compile(
    r"(?:出口|内销|外销|境外|海外|国外|国内|境内|线上|线下|直营|加盟|经销)(?:地区|市场|渠道)?\s?(?:实现|为|达到?|约|了)?\s?"
    r"(?=-?[0-9])"
)
"""A region's or channel's amount with no sales word (`2022年出口5.19亿元，毛利率42.99%`)."""
_SALES_RE = re.compile(
    r"([\u4e00-\u9fffA-Za-z]{1,10})(?:销售额|销售收入|销售)\s?(?:为|达到?|约|了|实现)?\s?(?=-?[0-9])"
)


_OWN_LEAD_RE = re.compile(r"^(?:其中[，,]?\s?)?(?:本公司|公司|本集团|集团)?")


def _segment_sales(reading: Reading, lo: int, pos: int) -> str | None:
    """`2022年电池组件制造设备境外销售5.19亿，毛利率42.99%，高于国内39.40%`: a margin no one is named for,
    after the sales amount of a named region, product or channel in its sentence, is that part's (a part's
    sales come with their own margin; `实现销售…`, `公司销售收入…`, `产品销售…` name the whole, and a
    revenue label of ours is the company's revenue)."""
    for m in reversed(list(_REGION_AMOUNT_RE.finditer(reading.folded, lo, pos))):
        after = reading.mentions_in(m.end(), m.end() + 1)
        if after and after[0].kind == "money":
            return m.group(0).strip()
    for m in reversed(list(_SALES_RE.finditer(reading.folded, lo, pos))):
        after = reading.mentions_in(m.end(), m.end() + 1)
        if not after or after[0].kind != "money":
            continue
        if any(lab.metric == "revenue" for lab in reading.labels_in(m.start(), m.end())):
            return None
        start = m.start(1)
        for p in reading.periods_in(max(lo, start - 12), m.end(1)):
            start = max(start, p.end)  # `2022年…销售`: the name starts after its period
        name = _OWN_LEAD_RE.sub(
            "", reading.folded[start : m.end(1)].strip()
        )  # `公司储能设备海外销售`: still a part
        rest = _FILLER_RE.sub("", name)
        if len(rest) < 2 or _NOT_A_PRODUCT_RE.search(name) or _WHOLE_INCOME_RE.search(name):
            return None
        return name
    return None


_REFERRING_LEAD_RE = re.compile(
    r"(?:^|[，,；;：:\s])\s?其(?:在|于)?\s*(?:实现|录得|营业|营收|归母|净利|毛利|收入)"
)
_TARGET_CLAUSE_RE = re.compile(
    r"\s?(?:对标|参照|参考|对比|类比|比照)\s?(?P<name>[\u4e00-\u9fffA-Za-z]{2,20})\s?$"
)
"""`对标海外巨头普氏能源资讯，其2020年营收约60.6亿元`: a clause that is only a comparison's target; the 其
of the clause after it is that target."""
_ACQUIRED_RE = re.compile(
    r"收购\s?(?P<name>[A-Za-z][A-Za-z&\-]{1,20}|[\u4e00-\u9fff]{2,10}?)(?:\s?(?:Pte|Ltd|Inc|Co|有限公司|股份|公司)\.?)*"
    r"\s?[0-9.]+\s?%\s?(?:的)?股[权份]"
)
"""`收购北京京瀚禹51%股权`, `收购 Maritec Pte Ltd100%股权`: a company the text's company is buying into."""
_THIS_COMPANY_RE = re.compile(r"(?:^|[，,；;\s])该公司")


def _acquired_subject(reading: Reading, label: Label) -> str | None:
    """`收购北京京瀚禹51%股权。京瀚禹是国内领先的…检测机构…。该公司2019年分别实现营业收入1.92亿元，净利润0.74亿元`,
    `收购 Maritec Pte Ltd100%股权…　　Maritec 公司营业收入稳定…。…ROE与ROA分别达到59%`: a figure whose
    clause names no one, in a paragraph that opens on a company the text says is being bought, or after 该公司
    right after a sentence that opens on it, is that company's, not the buyer's."""
    folded = reading.folded
    names = [m.group("name") for m in reading.matches_before(_ACQUIRED_RE, label.start)]
    if not names:
        return None
    names = [n for n in names if not reading.names_company(n)]
    clause_lo = reading.start_of(label.start, CLAUSE_BREAKS, 40)
    own = folded[clause_lo : label.start]
    openers = []
    stop_lo = reading.stop_start(label.start)
    named = _COMPANY_RE.search(own.replace("该公司", "")) or any(a in own for a in reading.aliases)
    if _THIS_COMPANY_RE.search(folded[stop_lo : label.start]) and not named:
        if stop_lo > 0:
            openers.append(folded[reading.stop_start(stop_lo - 1) : stop_lo])
    elif not _COMPANY_RE.search(own) and not any(a in own for a in reading.aliases):
        breaks = list(PARAGRAPH_BREAK_RE.finditer(folded, max(0, label.start - 600), label.start))
        if breaks:
            openers.append(folded[breaks[-1].end() : label.start])
    for opener in openers:
        lead = _OPENER_NAME_RE.match(opener.lstrip())
        if lead is None:
            continue
        for name in names:
            key = name.split()[0] if name.isascii() else name
            if lead.group(1) == key or (len(lead.group(1)) >= 2 and key.endswith(lead.group(1))):
                return key  # `京瀚禹是…` after `收购北京京瀚禹51%股权`: the same company, short of its place
    return None


_FOUNDED_OPENER_RE = re.compile(
    r"\s*(?P<name>[\u4e00-\u9fffA-Za-z]{2,14}?)\s?(?:成立于|创立于|设立于|(?<=公司)(?:是一家|为一家))"
)


def _introduced_entity(reading: Reading, label: Label) -> str | None:
    """`苏银凯基消金公司成立于2021年3月，专营…。…公司作为银行系持牌消金公司…1H22末，公司净利润0.58亿元`
    in a note on 江苏银行: a paragraph that opens by introducing someone other than the company
    (`<名>成立于…`) is about that one, and its `公司` is that one too, so a figure whose clause names none of
    the company's own names is the introduced one's. A full legal name (the company's own, written out) and
    the text's opening paragraph (no break before it: about the text's own company) are left alone."""
    folded = reading.folded
    breaks = reading.matches_before(PARAGRAPH_BREAK_RE, label.start)
    if not breaks:
        return None
    lo = breaks[-1].end()
    m = _FOUNDED_OPENER_RE.match(folded, lo, label.start)
    if m is None:
        return None
    name = m.group("name")
    if (
        _GENERIC_COMPANY_RE.search(name)
        or name.endswith(("股份有限公司", "股份公司"))
        or reading.names_company(name)
    ):
        return None
    own = folded[reading.start_of(label.start, CLAUSE_BREAKS, 40) : label.start]
    if any(a in own for a in reading.aliases):
        return None
    return name


_OPENER_NAME_RE = re.compile(
    r"([\u4e00-\u9fff]{2,12}?|[A-Za-z][A-Za-z&\-]{1,20})\s?(?:是|成立于|系|为|公司|\s)"
)


_FULL_NAME_RE = re.compile(r"([\u4e00-\u9fff]{2,14}?(?:股份有限公司|有限责任公司|有限公司))")


def _referred_company(reading: Reading, label: Label) -> str | None:
    """`中百控股集团股份有限公司发布公告称，2020年前三季度，其实现营业收入102.27亿元`: a figure whose clause
    opens on 其 is the figure of the company its sentence names in full before it; another company's when
    that name is not one of the text's names for itself; with no full name, the target a clause just before
    it compares with (`对标海外巨头…，其2020年营收…`)."""
    folded = reading.folded
    lo = reading.start_of(label.start, CLAUSE_BREAKS, 40)
    blank = _blank_periods(reading, folded[lo : label.start + 2], lo, label.start)
    if not _REFERRING_LEAD_RE.search(" " + blank.strip()):
        return None
    names = _FULL_NAME_RE.findall(folded, reading.stop_start(label.start, 200), lo)
    if not names:
        before = folded[reading.start_of(max(0, lo - 1), CLAUSE_BREAKS, 60) : max(0, lo - 1)]
        target = _TARGET_CLAUSE_RE.match(before)
        return target.group("name") if target else None
    name = names[-1]
    if any(a in name for a in reading.aliases):
        return None
    return name


_ASPECT_GAP_RE = re.compile(r"\s?方面[，,:：]\s?")
_ASPECT_VERBS_RE = re.compile(
    r"盈利|亏损|净赚|赚|以|为|达到?|的|了|营收|收入|净利润?|利润|约|近|超|逾|分别|共"
)


def _aspect_subject(reading: Reading, label: Label, pos: int) -> str | None:
    """`净利润方面，美团上半年盈利64.12亿元`: a label that heads an aspect, then a clause naming someone else
    (not the company, a company word or one of the text's names) before the figure: that one's figure."""
    folded = reading.folded
    m = _ASPECT_GAP_RE.match(folded, label.end, pos)
    if m is None:
        return None
    lo = m.end()
    text = folded[lo:pos]
    if CHANGE_RE.search(text) or reading.mentions_in(lo, pos):
        return None  # `净利润方面，同比增长20%至3.2亿元`: the heading's own figure after its change
    text = _blank_periods(reading, text, lo, pos)
    if _COMPANY_RE.search(text) or any(a in text for a in reading.aliases):
        return None
    text = _FILLER_RE.sub(" ", text)
    text = _ASPECT_VERBS_RE.sub(" ", text)
    words = [w for w in _PUNCT_RE.split(text) if w.strip()]
    if not words or not re.fullmatch(r"[\u4e00-\u9fffA-Za-z]{2,10}", words[0].strip()):
        return None
    return words[0].strip()


def _blank_periods(reading: Reading, text: str, lo: int, hi: int) -> str:
    """`text` (folded from `lo`) with the periods starting in [lo, hi) blanked, offsets kept: a period names
    no one (`2020年前三季度，其实现…`, `Q3实现收入`)."""
    for p in reading.periods_in(lo, hi):
        text = text[: p.start - lo] + " " * (p.end - p.start) + text[p.end - lo :]
    return text


_BULLETS = "◾■●◆•►"
"""Marks that open a list item in pasted notes; the words before one are the heading, no clause's subject."""


def _own_subject(reading: Reading, label: Label) -> tuple[str, str | None, bool]:
    """The subject the label's own clause names, and whether it names one at all."""
    folded = reading.folded
    lo = reading.start_of(label.start, SUBJECT_BREAKS, 40)
    # a run of blanks is a paragraph break in pasted notes (`报告　　2019年前三季度实现…`)
    gap = re.search(r"\s{2,}(?=\S)", folded[lo : label.start][::-1])
    if gap is not None:
        lo = label.start - gap.start()
    bullet = max(folded.rfind(ch, lo, label.start) for ch in _BULLETS)
    if bullet >= 0:
        # `业绩简报◾公司20H1实现营收35.3亿元`: a bullet opens the item; the words before it are a heading
        lo = bullet + 1
    lo = _after_source_note(folded, lo, label.start)
    raw = folded[lo : label.start]
    compared = list(_HIGHER_LOWER_RE.finditer(raw))
    if compared:
        # `毛利率为84%，明显高于公司整体毛利率35%`: what a comparison is made with names its own subject
        cut = compared[-1].end()
        cut += 1 if raw[cut : cut + 1] in ("于", "的") else 0
        lo, raw = lo + cut, raw[cut:]
    if not raw.strip():
        return "company", None, False
    if raw.isascii():
        blank = _blank_periods(reading, raw, lo, label.start)  # `Q3实现收入`: a period, no name
        latin = _latin_name(blank)
        if latin is not None and not reading.mentions_in(lo, label.start):
            return "segment", latin, True  # `IDC实现收入186.1亿元`: a business named only in Latin letters
        return "company", None, False
    region = _REGION_TOTAL_RE.search(raw)
    if region is not None:
        return "industry", region.group(0), True  # `1—11月，全省实现营业收入58520.08亿元`: a region's total
    if raw.lstrip().startswith("占"):
        return "company", None, False  # `占公司总营收的41.7%`: a share of the whole names no one's figure
    if _CIRCUMSTANCE_COMPANY_RE.search(raw):
        return "company", None, True
    named = bool(_COMPANY_RE.search(raw)) or any(alias in raw for alias in reading.aliases)
    text = _blank_periods(reading, raw, lo, label.start)
    for other in reversed(reading.labels_in(lo, label.start)):
        text = text[: other.start - lo] + " " * (other.end - other.start) + text[other.end - lo :]
    text = _blank_aliases(reading, text)  # before the numbers: a name may hold digits (`1药网Q2录得净营收`)
    for m in reversed(reading.mentions_in(lo, label.start)):  # `84.6亿元（+34.6%）、归母净利润`
        end = min(label.start, m.folded_end)
        text = text[: m.folded_start - lo] + " " * (end - m.folded_start) + text[end - lo :]
    text = _OWNER_RE.sub(lambda m: " " * len(m.group(0)), text)  # `归属于本行普通股股东的加权平均…`
    lettered = bool(re.search(r"[A-Za-z]", text))  # `公司CRO业务`: a part named in Latin letters
    latin = _latin_name(text)
    text = _ASCII_RUN_RE.sub(" ", text)
    if "母公司" in text and "归属于" not in text and "归属" not in text:
        return "parent", "母公司", True
    printed = text
    text = _FILLER_RE.sub(lambda m: " " * len(m.group(0)), text)  # offsets kept, for the printed name
    rest = _PUNCT_RE.sub("", text)
    if len(rest) < 2:
        if latin is not None and not named:
            return "segment", latin, True  # `IDC实现收入186.1亿元`: a business named only in Latin letters
        if latin is not None and raw.rstrip().endswith(latin) and _COMPANY_RE.search(raw):
            return "segment", latin, True  # `公司PTA毛利率22.66%`: a product named in Latin letters
        side = _CUSTOMER_SIDE_RE.search(raw)
        if side is not None and rest == "端" and not named:
            return "segment", side.group(0), True  # `B端毛利率大幅回升15pct至54%`: one customer side's
        return "company", None, named
    if _INDUSTRY_RE.search(rest):
        return "industry", _printed_name(printed, text), True
    if named and not lettered and _GENERIC_PART_RE.fullmatch(rest):
        return "company", None, True  # `19年Q3公司业务整体毛利率20.60%`: the company's whole business
    if not lettered and _all_products(rest, raw, label):
        return "company", None, True  # `产品总体毛利率32.36%`: every product together, the whole business
    if _CAUSE_END_RE.search(rest):
        return "company", None, False  # `新准则影响毛利率降1.95PCT至66.20%`: a cause, no one's name
    if _CAUSE_VERB_RE.fullmatch(rest) and (
        _company_clause_before(reading, lo)
        or _driver_clause_before(reading, lo)
        or _OWNER_LABEL_RE.match(label.text)
        or _COMPANY_AFTER_VERB_RE.search(raw)
    ):
        # `公司产品结构持续提升，带动毛利率…至84.5%`: the company moved it; `…整机销售毛利率20.34%，同比提升
        # 8.21pcts，推动归母净利润升至18.49亿元`: a profit owed to the parent's shareholders is the company's
        # whatever moved it (a part has no 归母净利润); `…，驱动公司单季度毛利率提升至52.05%`: the verb's
        # object is the company
        return "company", None, True
    if _NO_NAME_RE.fullmatch(rest) or (
        _COMPANY_SUFFIX_RE.fullmatch(rest) and any(alias + rest in raw for alias in reading.aliases)
    ):
        # `最终实现净利率13.0%`, `折合每股收益0.57元`, `公司二季度创造归母净利润`, `销售净利润率`: a word of
        # how the figure came or is named, no part's name; `中来股份前三季度…`: the company's name, its suffix
        return "company", None, True
    if _CHANGE_WORD_RE.fullmatch(rest):
        # `某某科技2021年净利1520.36万元增长18.20% 投资收益增加`: a headline run on with no stop; its 增长 is
        # the move of the figure before, no part's name
        return "company", None, False
    if _CHANGE_CAUSE_RE.search(rest) and not _SEGMENT_WORD_RE.search(rest):
        return "company", None, False  # `产品结构升级带动毛利率…`: a change that moved it, no part's name
    if _MOVE_DEGREE_RE.fullmatch(rest) or _HOW_IT_DID_RE.fullmatch(rest):
        # `费用控制有效，净利率提升明显前三季度销售毛利率达69.41%`: a heading that says how another
        # figure moved (its label blanked) runs into the sentence; a move and its degree name no part;
        # nor does a heading saying how a figure did (`利润表现强劲公司前三季度实现营收…`,
        # `净利率水平快速提升公司前三季度实现毛利率…`)
        return "company", None, False
    if _VIEW_WORD_RE.search(rest) and not _SEGMENT_WORD_RE.search(rest):
        # `仍看好中长期提升趋势毛利率达到35.79%`, `扣非增速…；2)前三季度毛利率10.5%`: a view or a trend
        # before the label, no part's name
        return "company", None, named
    return "segment", _printed_name(printed, text), True


_SOURCE_NOTE_RE = re.compile(r"来源[：:]")
_SOURCE_END_RE = re.compile(r"证券研究所|证券|研究所|研究院|研究中心|研究|整理|测算|预测")
_SOURCE_REACH = 60
_CAPTION_AFTER_RE = re.compile(r"\s?(?:图表|图|表)\s?[0-9]")


def _after_source_note(folded: str, lo: int, end: int) -> int:
    """`资料来源：公司半年报，中银证券公司2020年上半年实现营业收入105.65亿元`: a chart's source note (来源：,
    then sources ending in the broker's name, `中银证券`, `华西证券研究所`, or `整理`) that a PDF extraction
    ran into the next sentence is no one's name; the clause's subject starts after the note's last source.
    A note whose sources end in no such word, or that runs into the next exhibit's title (`图2…`, a chart's
    words, no sentence), leaves the subject as it was."""
    notes = list(_SOURCE_NOTE_RE.finditer(folded, max(0, lo - _SOURCE_REACH), end))
    if not notes or "。" in folded[notes[-1].end() : end]:
        return lo
    ends = list(_SOURCE_END_RE.finditer(folded, notes[-1].end(), end))
    if not ends or _CAPTION_AFTER_RE.match(folded, ends[-1].end()):
        return lo  # `…海通证券研究所图2公司2015-2019年归母净利润及增速`: the next chart's title, no sentence
    return max(lo, ends[-1].end())


def _blank_aliases(reading: Reading, text: str) -> str:
    """`text` with the company's names blanked (offsets kept), but for a short name (the two-character
    head of a longer one, `华东` of `华东医药`) printed as the tail of a longer name
    (`中美华东实现收入110.40亿元`: a subsidiary's, right after other name characters once fillers and
    periods are blanked): that name is another company's and stays, so the clause names it as a part."""
    for alias in reading.aliases:
        head = len(alias) == 2 and any(a != alias and a.startswith(alias) for a in reading.aliases)
        if not head:
            text = text.replace(alias, " " * len(alias))
            continue
        out, pos = [], 0
        for m in re.finditer(re.escape(alias), text):
            before = _FILLER_RE.sub(lambda f: " " * len(f.group(0)), text[: m.start()])
            tail = bool(before) and "\u4e00" <= before[-1] <= "\u9fff"
            out.append(text[pos : m.start()] + (alias if tail else " " * len(alias)))
            pos = m.end()
        text = "".join(out) + text[pos:]
    return text


def _printed_name(printed: str, kept: str) -> str:
    """A part's name as the text prints it: from the first to the last character the filler words leave in
    `kept` (`printed` with them blanked, offsets kept), with what lies between, widened to whole words. The
    fillers decide that a clause names a part; cutting them from inside a name makes a fragment no reader
    knows (`数据中心业务` would read `心业务`, its 数据 and 中 being fillers elsewhere)."""
    at = [i for i, ch in enumerate(kept) if not _PUNCT_RE.fullmatch(ch)]
    start, end = whole_words(printed, at[0], at[-1] + 1)
    return _PUNCT_RE.sub("", printed[start:end])


_CUSTOMER_SIDE_RE = re.compile(r"(?<![A-Za-z])(?:to\s?)?[A-Za-z]端", re.IGNORECASE)
"""`B端`, `C端`, `To B端`: the business sold to one kind of customer, a part of the company."""
_LATIN_NAME_RE = re.compile(r"[A-Z][A-Za-z0-9&+]{1,15}(?: [A-Z][A-Za-z0-9&+]{1,15}){0,2}")
"""One Latin word with an upper-case start, or up to three (`Huons Bio`)."""
_NOT_A_LATIN_NAME = frozenset({"YOY", "QOQ", "TTM", "LTM", "GAAP", "IFRS", "WIND", "EPS", "ROE", "PE", "PB"})
"""Latin words a clause carries that name no business: changes, bases, a data vendor, a metric."""


def _latin_name(text: str) -> str | None:
    """The one Latin-letter word left in a clause once its periods, labels, numbers and the company's names
    are blanked (`IDC` in `IDC实现`), if it is the only one and reads as a name (an upper-case start)."""
    runs = [r.strip(" -_.,/()") for r in _ASCII_RUN_RE.findall(text)]  # `(3)Huons Bio`: an item's mark
    runs = [r for r in runs if re.search(r"[A-Za-z]", r)]
    if len(runs) != 1 or not _LATIN_NAME_RE.fullmatch(runs[0]):
        return None
    return None if runs[0].upper() in _NOT_A_LATIN_NAME else runs[0]


def _company_clause_between(reading: Reading, lo: int, hi: int) -> bool:
    """Whether a whole clause in folded [lo, hi) opens on the company and holds no label of ours
    (`…数字示波器业务毛利率达到56.73%，同比增长6.92ppt；公司盈利能力持续改善，整体毛利率为54.23%`): the
    sentence has turned back to the company, so a part named before it no longer holds the figures after."""
    folded = reading.folded
    for m in re.finditer(r"[，,；;]", folded[lo:hi]):
        start = lo + m.end()
        nxt = re.search(r"[，,；;]", folded[start:hi])
        if nxt is None:
            return False
        end = start + nxt.start()
        if _COMPANY_CLAUSE_RE.match(folded[start:end]) and not reading.labels_in(start, end):
            return True
    return False


def _company_clause_before(reading: Reading, lo: int) -> bool:
    """Whether the clause before `lo` (in its sentence) is about the company itself: it names the company
    and no label of ours (`2021年公司产品结构持续提升，`)."""
    folded = reading.folded
    if lo == 0 or folded[lo - 1] not in "，,":
        return False
    prev_lo = reading.start_of(lo - 1, CLAUSE_BREAKS, 40)
    prev = folded[prev_lo : lo - 1]
    if reading.labels_in(prev_lo, lo - 1):
        return False
    return bool(_COMPANY_CLAUSE_RE.match(prev))


_DRIVER_END_RE = re.compile(
    r"(?:增长|提升|提高|上升|回升|下降|回落|优化|改善|升级|恢复|放量|扩大|减少|上涨|下滑|回暖|释放|显现|增加|高增)$"
)


def _driver_clause_before(reading: Reading, lo: int) -> bool:
    """Whether the clause before `lo` (in its sentence) states what moved the figure and no one's figure:
    no label of ours, no part's word, ending on a change (`净利息收入强势回升，拉动18年营收115.2亿`: the
    company's revenue, moved by one of its lines)."""
    folded = reading.folded
    if lo == 0 or folded[lo - 1] not in "，,":
        return False
    prev_lo = reading.start_of(lo - 1, CLAUSE_BREAKS, 40)
    prev = folded[prev_lo : lo - 1].strip()
    if reading.labels_in(prev_lo, lo - 1) or reading.mentions_in(prev_lo, lo - 1):
        return False
    return bool(_DRIVER_END_RE.search(prev)) and not _SEGMENT_WORD_RE.search(prev)


_COMPANY_CLAUSE_RE = re.compile(
    r"^\s?(?:[（(]?[0-9一二三四五六七八九十]{1,2}\s?[)）、.．]\s?)?(?:(?:20)?[0-9]{2}\s?年(?:度|全年)?)?\s?"
    r"(?:本公司|公司|集团|本集团)"
)
"""A clause opening on the company (after an item's number and a year at most): `（2）2021年公司…`."""


_CAUSE_END_RE = re.compile(r"影响下?$|作用下$|(?:压缩|侵蚀|拖累|挤压|摊薄|拉低|压低)了?$")
"""A clause naming what moved the figure (`新准则影响`, `受疫情影响`, `上游原材料成本压力较大压缩`,
`综合作用下`) right before the label names no segment: the figure is whoever the sentence is about."""
_CAUSE_VERB_RE = re.compile(_CAUSE_VERBS)
"""A clause that is only a cause's verb (`，带动毛利率…`): its subject is the clause before's."""
_DEDUCTION_QUALIFIER_RE = re.compile(r"扣除非经常性损益(?:后|后的)?|扣非(?:后|后的)?")
"""What a deducted profit's label opens on (`扣除非经常性损益后归母净利润`), left as its clause's subject."""
_NO_NAME_RE = re.compile(r"最终|折合|创造|基本|每股|销售|前三|高位|低位")
"""Words left before a label once fillers go that name no part: how the figure came (`最终实现`, `创造`,
`折合`), the label's own first word (`基本EPS`, `每股 EPS`, `销售净利润率`), a clipped `前三季度`, the level
another figure moved at in a heading run into the sentence (`毛利率高位上扬2020年公司实现营收7.09亿元`, its
label and 上扬 gone: `高位`)."""
_COMPANY_SUFFIX_RE = re.compile(r"股份|证券|集团|控股|银行|科技")
"""A company name's suffix, left when the name's stem is one of the text's names for the company."""
_VIEW_WORD_RE = re.compile(r"看好|趋势|增速|景气|预期|态势")
"""Words of a view or a trend (`看好…提升趋势`, `增速`): a clause holding one names no part of the company."""
_COMPANY_AFTER_VERB_RE = re.compile(r"(?:" + _CAUSE_VERBS + r")(?:本公司|公司|本集团|集团|本行)")
"""A cause's verb whose object is the company (`驱动公司单季度毛利率…`): the figure after is the company's."""
_MOVES = r"(?:提升|提高|增长|上升|回升|改善|优化|下降|下滑|回落|减少)"
_MOVE_DEGREE_RE = re.compile(
    _MOVES + r"(?:明显|显著|较快|迅速|较大|较多)|(?:明显|显著|大幅|快速|持续|稳步)" + _MOVES
)
"""A move and its degree, nothing else (`提升明显`, `显著改善`): what a figure did, no one's name."""
_HOW_IT_DID_RE = re.compile(
    r"(?:利润|收入|营收|业绩|盈利能力|盈利)?(?:水平|表现|状况|情况)"
    r"(?:" + _MOVE_DEGREE_RE.pattern + r"|强劲|亮眼|优异|突出|良好|积极向好|向好)"
    r"|(?:但|而|且|并)?(?:已经|已|经)?(?:基本|逐步|逐渐|全面|明显|显著)?(?:恢复|回升|回暖|修复)"
)
"""A figure's level or showing and how it did (`利润表现强劲`, `水平快速提升`, `状况积极向好`): a heading's
verdict on a result, no part's name; a part's (`医美业务表现强劲`) keeps its name. Nor does a turn back to
an earlier level (`但Q3单季度已经基本恢复去年同期毛利率水准` once its period words go: `但经基本恢复`)."""
_CHANGE_CAUSE_RE = re.compile(
    r"(?:增长|提升|提高|上升|下降|回落|优化|改善|升级|恢复|放量|扩大|减少|上涨|下滑|回暖|释放|显现)的?"
    r"(?:" + _CAUSE_VERBS + r")$"
)
"""A clause ending on a change and a cause's verb (`产品结构升级带动`, `产能利用率的恢复带动`): what moved the
figure, not whose it is."""
_CHANGE_WORD_RE = re.compile(r"(?:增长|增加|上升|提升|提高|下降|下滑|减少|降低|上涨|扩大|收窄)+")
"""Words of a move alone (`增长`, `下降`), left before a label once the figure they moved is blanked: what
changed, never a part's name."""
_GENERIC_PART_RE = re.compile(r"业务|(?:全部|整体|各项|所有)业务")
"""A part's word with no part named (`公司业务整体毛利率`): the company's whole business."""
_ALL_PRODUCTS_RE = re.compile(r"(?:全部|各项|所有)?产品")
_WHOLE_WORD_RE = re.compile(r"(?:总体|整体|综合)\s?$")


def _all_products(rest: str, raw: str, label: Label) -> bool:
    """Whether the clause names no product but the products as a whole (`产品总体毛利率`,
    `公司产品综合毛利率`): every product together is the company's whole business, as `业务整体` is; a named
    product (`锂电池产品综合毛利率`) or a bare `产品毛利率` stays a part."""
    if not _ALL_PRODUCTS_RE.fullmatch(rest):
        return False
    return bool(_WHOLE_WORD_RE.search(raw)) or label.text.startswith(("综合", "整体", "总体"))


_HEADING_RE = re.compile(
    r"^[（(]?(?:[0-9]{1,2}|[一二三四五六七八九十])\s?[)）、.．]\s?(?P<name>[^，,。；;：:]{1,24}?)\s?[(（]?[A-Za-z]{0,6}[)）]?\s?[：:]$"
)
"""A numbered item's heading before its figures (`2）d’zzit（DZ）：`, `1）线上渠道：`, `（1）印染业务：`)."""
_ASPECT_RE = re.compile(
    r"公司|集团|本行|整体|合计|总体|全年|年度|季度|单季|上半年|下半年|前三季度|业绩|财务|经营|盈利|利润|收入|营收|费用"
    r"|现金|毛利|事件|点评|概况|回顾|总结|要点|观点|估值|风险|投资|评级|预测|展望|核心|主要|报告|数据"
)
"""Words a heading about the report's own figures uses (`1）业绩：`, `2）盈利能力：`): no segment's name."""


_REGION_TOTAL_RE = re.compile(r"全(?:省|市|区|县|国)|各省|各地区?")
_COLLECTIVE_RE = re.compile(
    r"(?:(?:上市|A股|全部|所有|各家?)[\u4e00-\u9fff]{0,4}?(?:公司|企业)|[\u4e00-\u9fff]{0,4}?(?:券商|银行|险企|房企|车企|基金))"
    r"(?:全体|合计|共计|累计|整体)"
)
"""A group of companies taken together (`上市券商全体`, `A股上市公司合计`); `公司整体` is one company's
whole."""
_HEADING_BUSINESS_RE = re.compile(
    r"^(?:公司)?(?P<name>[\u4e00-\u9fff]{2,10}?(?:设备|业务|产品|板块|品类|事业部))(?!线|结构|矩阵|体系|布局)"
)


def _heading_business(reading: Reading, pos: int) -> str | None:
    """`电能质量设备是公司的基本盘，为公司提供高现金流：　　公司发展起步于电能质量设备，…2022年营收达到
    5.12亿元`: a paragraph under a heading line (ending in a colon) that opens on one of the company's
    businesses is about that business; a figure whose own sentence names no one is the business's."""
    folded = reading.folded
    breaks = reading.matches_before(PARAGRAPH_BREAK_RE, pos)
    if not breaks:
        return None
    par_lo = breaks[-1].start()
    if not folded[:par_lo].rstrip().endswith(("：", ":")):
        return None
    head_lo = breaks[-2].end() if len(breaks) > 1 else 0  # matches never overlap: the one before ends first
    m = _HEADING_BUSINESS_RE.match(folded[head_lo:par_lo].strip())
    if m is None or _TOTAL_WORD_RE.search(m.group("name")) or _whole_business(m.group("name")):
        return None
    return m.group("name")


_THIS_STOCK_RE = re.compile(r"该股(?!份|东)")
_TARGET_TOPIC_RE = re.compile(r"(?:本次|此次|该)?(?:收购|交易|重组)?标的(?:公司|资产|企业|学校|医院|方)?")


def _collective_topic(reading: Reading, pos: int) -> str | None:
    """`2021前三季度上市券商全体实现盈利，合计实现营业收入4698亿元，实现归母净利润1484亿元`: a sentence that
    opens on a group of companies taken together is about their sum, an industry's figure."""
    lo = _sentence_lo(reading, pos)
    end = reading.end_of(lo, CLAUSE_BREAKS, 40)
    if end > pos or reading.labels_in(lo, end):
        return None
    m = _COLLECTIVE_RE.search(reading.folded, lo, end)
    return m.group(0) if m is not None else None


def _past_heading_colon(reading: Reading, lo: int, hi: int) -> int:
    """`■归母净利高增，医美板块业务发力：2月26日朗姿股份发布业绩快报，FY2020收入28.73亿元`: a clause that
    holds a heading's colon, and after it names the company (one of its names, `公司`), is the company's
    own from the colon on; the business the heading names before it (`医美板块`) is the bullet's theme,
    not the subject of the report the company announces. Where the clause starts, read past such a colon
    (else `lo`)."""
    folded = reading.folded
    colon = max(folded.rfind("：", lo, hi), folded.rfind(":", lo, hi))
    if colon < 0:
        return lo
    after = folded[colon + 1 : hi]
    if _COMPANY_RE.search(after) is None and not any(alias and alias in after for alias in reading.aliases):
        return lo
    return colon + 1


def _topic(reading: Reading, pos: int) -> tuple[str, str | None]:
    """Whose a figure is when its own clause does not say: the segment its sentence is about.

    A sentence opening on a segment (`坚果品类逐渐摆脱疫情影响，…，1H20营收3.1亿`), a sentence introduced as a
    breakdown (`分渠道来看，…实现营收3.4亿元`), or the clause right before naming a business
    (`公司工程大宗业务渠道表现强劲，实现营收3.4亿元`, `云服务业务（不含金融）加速增长，营收19.71亿元`)."""
    folded = reading.folded
    lo = _sentence_lo(reading, pos)
    own = reading.start_of(pos, SUBJECT_BREAKS, 60)
    if _THIS_STOCK_RE.search(folded, lo, pos):
        # `关联行业/概念板块…等财务数据最近的财报数据显示，该股于…销售毛利率 -9.127%`: a quote page turning to
        # the stock's own figures; the sector board named before is not their subject
        return "company", None
    heading = _HEADING_RE.match(folded[lo:own].strip())
    if heading is not None and not reading.labels_in(lo, own):
        name = heading.group("name").strip()
        if not _ASPECT_RE.search(name):
            return "segment", name  # `2）d’zzit（DZ）：2019年实现营收8.13亿元`: the heading names whose
    if _BREAKDOWN_RE.search(folded, lo, own):
        return "segment", _BREAKDOWN_RE.search(folded, lo, own).group(0)  # type: ignore[union-attr]
    part = _part_heading(reading, lo, own)
    if part is not None:
        return "segment", part
    first = folded[lo : reading.end_of(lo, CLAUSE_BREAKS, 40)]
    heading_part = _heading_business(reading, pos)
    if heading_part is not None:
        return "segment", heading_part
    target = _TARGET_TOPIC_RE.match(first)
    if target is not None:
        return "segment", target.group(0)  # `标的学校有13000名学生，2018年收入2.2亿人民币`: the target's
    region = _REGION_TOPIC_RE.match(first) or _MAIN_BUSINESS_TOPIC_RE.match(first)
    if region is not None and not reading.labels_in(lo, lo + len(first)):
        return "segment", region.group(0)
    industry = _INDUSTRY_TOPIC_RE.match(first)
    if (
        industry is not None
        and lo + len(first) <= own
        and not _COMPANY_RE.search(folded, lo, own)
        and not _OWN_DOING_RE.search(folded[lo + len(first) : own + 4])
    ):
        return "industry", industry.group(0)
    tally = _TALLY_TOPIC_RE.match(first)
    if (
        tally is not None
        and lo + len(first) <= own
        and not reading.labels_in(lo, lo + len(first))
        and not _COMPANY_RE.search(tally.group("name"))
        and not reading.names_company(tally.group("name"))
        and not reading.periods_in(lo, lo + tally.end("name"))
    ):
        return "segment", tally.group("name")  # `印象丽江共计演出347场，…，实现营业收入7660.08万元`
    among = _AMONG_TOPIC_RE.match(first)
    if among is not None and lo + len(first) <= own and not reading.labels_in(lo, lo + len(first)):
        name = among.group("name")
        if (
            len(_FILLER_RE.sub("", name)) >= 2
            and not _COMPANY_RE.search(name)
            and not _ASPECT_RE.search(name)
            and not _whole_business(name)
            and not reading.periods_in(lo, lo + among.end("name"))
            and not any(alias in name for alias in reading.aliases)
        ):
            return "segment", name  # `其中洗碗机增长强劲，2020年实现收入2.24亿元`: a part just named
    # the sentence's opening clause, then that of the `；` item holding the label (`…；代销金融产品业务
    # 实现爆发式增长，20年增速达175.14%，实现收入4.56亿元`: an item opening on a business is that business's)
    item_lo = max(lo, max(folded.rfind(ch, lo, own) for ch in "；;") + 1)
    while item_lo < own and folded[item_lo] in " \t":
        item_lo += 1
    for start in (lo, item_lo) if item_lo > lo else (lo,):
        opening = folded[start : reading.end_of(start, CLAUSE_BREAKS, 40)]
        if start + len(opening) > own:
            continue
        # `公司2022年半导体显示业务，销售面积达…，年实现营收657.2亿元`: the company and a year before the part
        lead = _COMPANY_YEAR_LEAD_RE.match(opening)
        m = _TOPIC_RE.match(opening[lead.end() :] if lead is not None else opening)
        if m is not None and lead is not None and _whole_business(_FILLER_RE.sub("", m.group(0))):
            m = None
        if (
            m is not None
            and not re.search(r"公司|集团|本行|整体|合计", m.group(0))
            and not _BENEFIT_LEAD_RE.match(opening)
        ):
            # `受益于青花系列放量，Q3毛利率…`: a cause opening the sentence is no topic
            if not reading.labels_in(start, start + len(opening)):
                return "segment", m.group(0)
    opening_part = _part_revenue(reading, lo, lo + len(first))
    if opening_part is not None and lo + len(first) <= own:
        # `2019年金健桥收入457万元，净利润-613万元，2020H1收入428万元，净利润3.65万元`: a sentence that
        # opens on a named part's revenue (read by no label) is that part's in every clause after it
        return "segment", opening_part
    trend = _part_income_trend(reading, lo, own)
    if trend is not None:
        return "segment", trend
    # the clause right before the label's own (no figure of its own in it)
    prev_end = own - 1
    if prev_end > lo:
        prev_lo = max(lo, reading.start_of(prev_end, CLAUSE_BREAKS, 60))
        prev_lo = _past_heading_colon(reading, prev_lo, prev_end)
        prev = folded[prev_lo:prev_end].strip()
        named = _named_subsidiary(reading, prev)
        if named is not None and not reading.labels_in(prev_lo, prev_end):
            return "segment", named
        m = _BUSINESS_RE.match(prev)
        if (
            m is not None
            and not reading.labels_in(prev_lo, prev_end)
            and not _TOTAL_WORD_RE.search(m.group(0))
            # `报告期内，公司业务开展稳步有序,实现营业收入2.35亿元`: the company's business, the whole
            and not _whole_business(re.sub(r"^(?:本公司|公司|本集团|集团)", "", m.group(1)))
        ):
            return "segment", m.group(1)
        line = _COMPANY_LINE_RE.match(prev)
        if (
            line is not None
            and not reading.labels_in(prev_lo, prev_end)
            and not reading.mentions_in(prev_lo, prev_end)
            and not reading.periods_in(prev_lo, prev_end)
            and not _ASPECT_RE.search(line.group("name"))
            and not _whole_business(line.group("name"))
            and not _COMPANY_RE.search(line.group("name"))
            and not any(alias in line.group("name") for alias in reading.aliases)
        ):
            # `公司津逮服务器保持稳健增长，实现营收9.37亿元`: one line of the company's, named, growing
            return "segment", line.group("name")
        part = _part_revenue(reading, prev_lo, prev_end)
        if part is not None:
            return "segment", part  # `2019年金健桥收入557万元，净利润-713万元`: the part's
    if not folded[lo:own].strip() and lo > 0:
        # `公司紫外固化材料实现销售收入3.95亿元，较上年同期下降10.81%。毛利率36.25%`: a sentence opening on
        # its bare label after one giving only a named line's sales read by no label, is that line's
        before = _sentence_lo(reading, lo - 1)
        sales = _LINE_SALES_RE.search(folded, before, lo)
        if sales is not None and not reading.labels_in(before, lo):
            name = _FILLER_RE.sub("", sales.group("name"))
            if (
                len(name) >= 2
                and not _COMPANY_RE.search(name)
                and not _whole_business(name)
                and not reading.names_company(name)
            ):
                return "segment", name
    item = _item_paragraph(reading, pos)
    if item is not None:
        return "segment", item
    return "company", None


_PART_INCOME_TREND_RE = re.compile(
    r"(?:^|(?<=[，,；;]))\s?(?:近年来|近几年来?|近年|报告期内|今年以来)?\s?(?:本公司|公司)"
    r"(?P<name>[\u4e00-\u9fffA-Za-z]{2,8}?)收入(?:保持|延续|维持|继续|持续)(?:了)?"
    r"(?:稳步|稳健|快速|高速|较快|良好|稳定|强劲)?(?:的)?(?:提升|增长|上升)"
)
"""A clause saying one of the company's lines' income keeps growing (`近年来公司综合服务收入保持稳步提升`)."""


def _part_income_trend(reading: Reading, lo: int, own: int) -> str | None:
    """`近年来公司综合服务收入保持稳步提升,2019年实现收入6116.57万元,增长22.51%;毛利率为49.17%`: a sentence
    that says a named line's income keeps growing, then gives figures naming no one, gives that line's (the
    figures bear out the clause; no company word or label naming its owner comes between). A whole's income
    (`营业收入`, `主营收入`, `总收入`) names no line."""
    folded = reading.folded
    found = [m for m in _PART_INCOME_TREND_RE.finditer(folded, lo, own) if m.end() <= own]
    if not found:
        return None
    m = found[-1]
    name = m.group("name")
    if (
        _NOT_A_PART_RE.search(name)
        or _WHOLE_INCOME_RE.search(name)
        or _whole_business(name)
        or reading.names_company(name)
        or _COMPANY_RE.search(folded, m.end(), own)
        or any(_own_subject(reading, lab)[2] for lab in reading.labels_in(m.end(), own))
    ):
        return None
    return name


def _part_revenue(reading: Reading, lo: int, end: int) -> str | None:
    """The name of a part whose revenue alone the clause [lo, end) gives, read by no label (a revenue read as
    no one's label is a part's): `2019年金健桥收入557万元`."""
    clause = reading.folded[lo:end]
    part = _PART_REVENUE_RE.match(reading.folded, lo + len(clause) - len(clause.lstrip()), end)
    if part is None or reading.labels_in(lo, end):
        return None
    name = part.group("name")
    if _NOT_A_PART_RE.search(name) or reading.names_company(name) or _whole_business(name):
        return None
    return name


_PART_REVENUE_RE = re.compile(
    r"(?:(?:20)?[0-9]{2}\s?年(?:度)?|(?:20)?[0-9]{2}\s?H[12]|[12]H\s?(?:20)?[0-9]{2})?\s?"
    r"(?P<name>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:营业收入|营收|收入)\s?(?:为|达|约)?\s?[-+]?[0-9]"
)
"""A clause giving a named part's revenue and nothing else (`2019年金健桥收入557万元`)."""
_LINE_SALES_RE = re.compile(
    r"(?:本公司|公司|集团)(?P<name>[\u4e00-\u9fffA-Za-z]{2,10}?)(?:业务|板块|产品)?实现(?:销售|营业)收入\s?[0-9]"
)
"""A named line's sales (`公司紫外固化材料实现销售收入3.95亿元`)."""
_NOT_A_PART_RE = re.compile(
    r"公司|集团|本行|全年|上半年|下半年|前三季度|季度|单季|实现|合计|总|营业|主营|全部|整体|报告期|期内|同期|其中|累计"
)
_ITEM_SENTENCE_RE = re.compile(
    r"\s*(?:[(（]?[0-9一二三四五六七八九十]{1,2}\s?[)）.．、]\s?)(?P<name>[\u4e00-\u9fffA-Za-z]{2,10})\s?。"
)
_STATEMENT_WORD_RE = re.compile(
    r"增|降|升|提|减|改善|优化|影响|符合|超|低于|高于|预期|稳|恢复|回暖|承压|亮眼|强劲|良好|不及|转|扭|亏|盈|加速|放缓"
)
"""Words of a heading that states how things went (`1.收入稳步增长。`), not which business the paragraph is
on."""


def _item_paragraph(reading: Reading, pos: int) -> str | None:
    """`1.石油机械设备。公司紧密跟踪市场信息，…，实现营业收入17.09亿`: a paragraph opening on a numbered
    heading that is a sentence of its own naming a business is about that business, so the figures in it
    whose clause names no one are that business's (`1.业绩。`, `2.收入稳步增长。` name no business)."""
    folded = reading.folded
    lo = max(0, pos - 800)
    breaks = list(PARAGRAPH_BREAK_RE.finditer(folded, lo, pos))
    para_lo = breaks[-1].end() if breaks else lo
    if not breaks and lo > 0:
        return None
    m = _ITEM_SENTENCE_RE.match(folded, para_lo, pos)
    if m is None:
        return None
    name = m.group("name")
    if _ASPECT_RE.search(name) or _STATEMENT_WORD_RE.search(name) or reading.labels_in(m.start(), m.end()):
        return None
    return name


_ASPECT_HEAD_RE = re.compile(r"([\u4e00-\u9fffA-Za-z]{2,12}?)(?:方面|来看|而言)\s?[：:，,]\s?$")
_ITEM_HEAD_RE = re.compile(
    r"(?:^|(?<=[：:；;。，,\s]))(?:[0-9]{1,2}|[一二三四五六七八九十])\s?[)）]\s?(?P<name>[^，,。；;：:()（）]{2,24}?)\s?"
    r"(?:(?P<aspect>方面)\s?[：:，,]|[：:])"
)


_FROM_LEAD_RE = re.compile(r"^(?:从|按|就|在)")


def _whole_business(name: str) -> bool:
    """`业务`, `主营业务`, `整体业务`: words for the whole business, not one part's name."""
    return bool(_GENERIC_PART_RE.fullmatch(name) or _TOTAL_WORD_RE.fullmatch(name))


def _part_heading(reading: Reading, lo: int, own: int) -> str | None:
    """A part named as the heading of the figures that follow it in the sentence: `国内方面：21年营收24.7亿元`
    (a region or business, then 方面/来看, right before the figure's clause) or a numbered item
    `4）智能物流：16.95亿元，yoy+60.53%；毛利率19.05%`, `1）有税业务方面，…实现营收5.33亿元，实现毛利率70.32%`
    (the item runs to the next item's number). A heading about the report's own figures (`盈利能力方面：`,
    `1）2022：`, `2）费用率：`) names no part."""
    folded = reading.folded
    aspect = _ASPECT_HEAD_RE.search(folded, lo, own)
    if aspect is not None:
        name = _FROM_LEAD_RE.sub("", aspect.group(1))
        if _whole_business(name):
            return None  # `主营业务方面：`, `从业务来看，`: the whole business, no part
        if _REGION_TOPIC_RE.match(name) or _TOPIC_RE.match(name) or _SEGMENT_WORD_RE.search(name):
            if not _ASPECT_RE.search(name) and not _LEAD_VERB_RE.match(name):
                return name
        return None
    items = list(_ITEM_HEAD_RE.finditer(folded, lo, own))
    if not items:
        return None
    item = items[-1]
    name = item.group("name").strip()
    rest = name
    for p in reading.periods_in(item.start("name"), item.end("name")):
        rest = rest.replace(folded[p.start : p.end], "")
    if len(_PUNCT_RE.sub("", rest)) < 2 or _ASPECT_RE.search(name) or _whole_business(rest):
        return None
    if reading.labels_in(item.start("name"), item.end("name")):
        return None  # `1）毛利率：…`: a figure's heading, not a part's
    if item.group("aspect"):
        if not (_REGION_TOPIC_RE.match(name) or _SEGMENT_WORD_RE.search(name)):
            return None  # `1）业绩方面，`: 方面 after a word that names no region or business
    elif not _opens_on_figures(reading, item.end()):
        return None  # `1）产品结构：高端产品占比提升，毛利率…`: a reason's heading, not a part's figures
    return name


def _opens_on_figures(reading: Reading, pos: int) -> bool:
    """Whether an item's text opens on its figures: an amount (`：99.44亿元`) or a revenue label
    (`：营收10.56亿`, `：20年实现营收23亿元`), as a breakdown of parts does."""
    folded = reading.folded
    start = pos
    while start < len(folded) and folded[start] in " \t":
        start += 1
    for p in reading.periods_in(start, start + 12):
        if p.start == start:
            start = p.end  # `：20年营收…`
    head = folded[start : start + 12]
    if re.match(r"(?:实现|营业)?\s?(?:营收|收入|营业收入|销售收入|营业总收入)", head):
        return True
    first = reading.mentions_in(start, start + 2)
    return bool(first) and first[0].kind == "money"


_COMPANY_SUFFIX_RE = re.compile(r"^(?:股份|公司|集团|控股|有限|本部|母公司|的)")


_GENERIC_NAMES = frozenset({"公司", "本公司", "该公司", "集团", "本集团", "本行", "该行"})
"""Words a text calls the company by (`公司披露…` makes 公司 an alias), never a short name that a
subsidiary's extends: `公司通过发挥规模采购优势…，全年毛利率达到32.0%` is the company's own margin."""


def _named_subsidiary(reading: Reading, clause: str) -> str | None:
    """`晨光科力普保持高速增长，实现营业收入36.6亿元`: a clause opening on the company's short name extended
    into another name (not its full name, not 公司/股份/集团) is about a subsidiary or brand of it."""
    if len(reading.aliases) < 2:
        return None
    full = [a for a in reading.aliases if clause.startswith(a) and a not in _GENERIC_NAMES]
    longest = max(full, key=len) if full else ""
    if not longest or longest == max(reading.aliases, key=len):
        return None
    rest = clause[len(longest) :]
    m = re.match(r"[\u4e00-\u9fff]{2,6}", rest)
    if m is None or _COMPANY_SUFFIX_RE.match(rest) or _FILLER_RE.match(rest):
        return None
    return longest + m.group(0)


def _unit_kind_ok(metric: str, mention: Mention) -> bool:
    kinds = METRICS[metric]
    if mention.kind in kinds:
        if metric == "eps" and mention.kind == "money":
            return mention.factor == 1.0
        return True
    if metric == "eps" and mention.kind == "other":
        return mention.printed.rstrip().endswith(("元/股", "元每股", "元／股"))
    return False


_CHANGE_IN_POINTS_AFTER_RE = re.compile(
    r"[，,]\s?(?:同比|较上年同期|较上年|环比)\s?(?:增加|提升|提高|上升|下降|减少|下滑|降低|增|降|升)?\s?[+\-]?[0-9]+(?:\.[0-9]+)?"
    r"\s?(?:个百分点|百分点|pcts?|pp)(?![A-Za-z])",
    re.IGNORECASE,
)


def _rate_lost_its_sign(folded: str, mention: Mention) -> bool:
    """`公司整体毛利率为79.25，同比增加5.01pct`: a rate printed with decimals but without its %, whose change
    right after is in percentage points, is a percent all the same (a bare whole number, or one with no change
    in points after it, stays no rate)."""
    if mention.kind != "none" or mention.decimals == 0 or not 0 < mention.magnitude < 100:
        return False
    return bool(_CHANGE_IN_POINTS_AFTER_RE.match(folded, mention.folded_end))


def _inherited_unit(reading: Reading, mention: Mention, lo: int) -> tuple[float, str] | None:
    """The unit of a bare amount printed like its sentence's other amounts, when those share one unit."""
    if mention.kind != "none" or ("," not in mention.printed and "." not in mention.printed):
        return None
    before = [
        m
        for m in reading.mentions_in(lo, mention.folded_start)
        if m.kind == "money" and m.unit_source == "beside"
    ]
    if not before:
        return None
    factors = {m.factor for m in before}
    if len(factors) != 1:
        return None
    styled = [
        m for m in before if ("," in m.printed) == ("," in mention.printed) and m.decimals == mention.decimals
    ]
    if not styled:
        return None
    return before[-1].factor, printed_unit(before[-1])


def _threshold(folded: str, mention: Mention, gap: str) -> bool:
    if _THRESHOLD_BEFORE_RE.search(gap[-8:]) or _IMPACT_GAP_RE.search(gap[-10:]):
        return True
    end = mention.folded_end
    return bool(_THRESHOLD_AFTER_RE.match(folded, end) or _THRESHOLD_AFTER_RE.match(folded[end : end + 4]))


_END_ASIDE_RE = re.compile(r"\s?[（(][^（()）]{0,30}[）)]")


def _past_aside(reading: Reading, index: int, ahead: bool) -> int:
    """The neighbour of mention `index` once a bracketed aside printed right after the earlier of the two
    is stepped over (`8000万（+72.62%）至9000万（+94.19%）`: the growth rates are each end's own note)."""
    text = reading.text
    mentions = reading.scanned.mentions
    if ahead:
        aside = _END_ASIDE_RE.match(text, mentions[index].end)
        if aside is None:
            return index + 1
        j = index + 1
        while j < len(mentions) and mentions[j].start < aside.end():
            j += 1
        return j
    j = index - 1
    while j >= 0:
        aside = _END_ASIDE_RE.match(text, mentions[j].end)
        if aside is not None and aside.end() <= mentions[index].start and j < index - 1:
            between = mentions[j + 1 : index]
            if all(m.start < aside.end() for m in between):
                return j
        if mentions[j].end <= mentions[index].start - 40:
            break
        j -= 1
    return index - 1


def _in_range(reading: Reading, index: int) -> bool:
    """Whether the number is one end of a range (`1883.70万元–2260.44万元`, `70%-75%`, `8000万（+72.62%）至
    9000万`): a dash or 至 joins it to a number of the same kind (`增长15.7%至1741.44亿元` is a rate and a
    level, no range)."""
    text = reading.text
    mentions = reading.scanned.mentions
    mention = mentions[index]
    for j, ahead in ((index + 1, True), (index - 1, False), (None, True), (None, False)):
        if j is None:
            j = _past_aside(reading, index, ahead)
            if j in (index + 1, index - 1):
                continue
        if not 0 <= j < len(mentions):
            continue
        other = mentions[j]
        # original offsets: a mention's folded start may include a dash it did not read as a sign
        if j not in (index + 1, index - 1):
            lo, hi = (mention.end, other.start) if ahead else (other.end, mention.start)
            aside = _END_ASIDE_RE.match(text, lo)
            between = text[aside.end() if aside else lo : hi]
        else:
            between = text[mention.end : other.start] if ahead else text[other.end : mention.start]
        between = between.replace("–", "-").replace("—", "-").replace("－", "-").replace("～", "~")
        if not _RANGE_JOIN_RE.match(between):
            continue
        if other.kind == mention.kind or "none" in (other.kind, mention.kind):
            return True
    return False


_ADJUSTED_BEFORE_RE = re.compile(
    r"(?:(?:剔除|扣除|还原|加回|不考虑|排除)[^，,；;。]{0,20}(?:后|影响|因素)|调整后"
    r"|(?:若|如|如果|假设)(?:剔除|扣除|还原|加回|不考虑|排除)[^，,；;。]{1,20}"
    r"|(?:若|如|如果|假设)(?:将|把)[^，,；;。]{1,24}(?:剔除|扣除|还原|加回|排除)(?:后|掉)?)[，,]\s?$"
)
"""The clause right before a label that removes something (`剔除股权激励费用后，`, `还原会计准则调整后，`,
`若还原运费，`):
the figure is adjusted."""
_ASIDE_RE = re.compile(r"[（(][^（()）]{0,60}[）)]")


def adjusted_before(folded: str, lo: int, clause_lo: int) -> bool:
    """Whether the clause ending at `clause_lo` (a label's clause opens there) restates what follows
    (`_ADJUSTED_BEFORE_RE`), a bracketed aside on what was restated set apart: `还原会计准则调整后（2021年将
    “销售费用-运费”调整至营业成本），2021年公司毛利率…至52.1%` is the writer's figure, not the report's."""
    before = _ASIDE_RE.sub("", folded[max(lo, clause_lo - 90) : clause_lo])
    return bool(_ADJUSTED_BEFORE_RE.search(before[-40:]))


_COMPANY_INCOME_LEAD_RE = re.compile(
    r"(?:^|[，,；;。\s])\s?(?:(?:20[0-9]{2}|[0-9]{2})\s?年(?:度|全年)?|报告期内|全年|上半年|前三季度)?\s?(?:本公司|公司|本集团|集团)\s?$"
    r"|(?:^|[，,；;。\s])\s?(?:本公司|公司|本集团|集团)\s?(?:20[0-9]{2}|[0-9]{2})\s?年(?:度|全年)?\s?$"
    r"|(?:^|[，,；;。\s]|公布|发布|披露|公司|集团)\s?(?:20[0-9]{2}|[0-9]{2})\s?年(?:度|全年)?\s?业绩\s?[：:]\s?$"
)
"""`2020 年公司收入 19.27 亿元`, `公司2021年收入43.24亿元`: a bare 收入 whose clause is the company and at
most its period is the company's revenue, as 公司…销售收入 is (a part's 收入 names the part: `海外收入`,
`其中预调鸡尾酒收入`); `凯莱英公布2019年业绩：收入…`: a year's results announced as a heading, the
figures after its colon the company's."""
_ADJUSTABLE = frozenset({"revenue", "net_profit", "gross_margin", "net_margin", "roe"})
"""Figures a writer restates after removing something; a 扣非 profit after `剔除该影响，` is still the
reported deducted profit (the removal is its own)."""
_ADJUSTED_LEAD_RE = re.compile(
    r"(?:(?:可比|同|备考|模拟(?:合并)?|调整后(?:的)?)口径|经调整|调整后的?"
    r"|非(?:美国|国际)?(?:通用|公认)?(?:会计|财务报告)准则)(?:计算|来看|看|下|对比|比较)?[，,]?"
    r"[^，,；;。]{0,8}$"
)
"""Right before the label, a basis other than the reported one (`按可比口径计算，公司毛利率`, `同口径下公司…`,
`经调整净利润`, `非美国通用会计准则下，归属股东净亏损`: non-GAAP): the writer's restated figure."""
_REMOVED_ASIDE_RE = re.compile(
    r"(?:剔除|扣除|还原|不考虑|排除)[^，,；;。（(]{1,20}(?:影响|因素|后)\s?[（(][^）)]*$"
)
"""`剔除六间房出表影响（18H1净利润为1.89亿，…）`: a bracket right after what the writer removes gives that
item's figures (or the basis it was removed from), not the period's."""
_REVISION_BEFORE_RE = re.compile(r"调整前")
_REVISION_REACH = 60


def _revised_estimate(folded: str, pos: int) -> bool:
    """`盈利预测调整（人民币百万元）2020A2021E…营业收入调整前2,4543,4304,612调整后2,6333,9055,3627,029`: a
    调整后 with its 调整前 just before is a broker's estimates revised, before and after, not a figure
    restated by removing something; it is no adjusted figure a headline could echo (the note's own
    `公司20年实现收入26.3亿元` stays the company's revenue)."""
    return _REVISION_BEFORE_RE.search(folded, max(0, pos - _REVISION_REACH), pos) is not None


_ADJUSTED_AFTER_RE = re.compile(r"\s?[%％]?\s?(?:[（(]\s?调整后|[（(]\s?经调整|[（(]\s?备考)")
_ADJUSTED_GAP_RE = re.compile(r"调整后|经调整|还原后|剔除[^，,；;。]{0,12}后")
_BASE_AFTER_RE = re.compile(r"\s?(?:的)?基础上")
_LONG_RUN_RE = re.compile(r"长期以来|长期来看|多年来|近年来|历年来|一直以来|历史上|常年")
_YEAR_GLUED_RE = re.compile(r"(?<![0-9.])(?:20)?[0-9]{2}\s?[EF]?\s?$")
_SHARE_OF_WHOLE = (
    r"\s?[，,（(]?\s?(?:约|大约)?占(?:了)?(?:公司|本公司|上市公司|集团|本集团|母公司)(?:20[0-9]{2}\s?年度?|同期|当期|报告期|全年)?"
    r"(?:的)?(?:经审计的?)?(?:合并)?"
)
_SHARE_OF_NAMED_GROUP = r"\s?[，,（(]?\s?(?:约|大约)?占(?:了)?[\u4e00-\u9fff]{2,10}集团(?:的)?(?:比例|比重)"
_SHARE_OF_WHOLE_AFTER_RE = {
    "revenue": re.compile(
        _SHARE_OF_WHOLE + r"(?:营业)?(?:总|整体|全部)?(?:营业收入|营收|收入|销售额)|" + _SHARE_OF_NAMED_GROUP
    ),
    "net_profit": re.compile(
        _SHARE_OF_WHOLE + r"(?:归母|归属于[^，。；,;]{0,12}的)?(?:净利润|利润)|" + _SHARE_OF_NAMED_GROUP
    ),
}
"""`营业收入12.86亿元，占公司2021年度总收入的40%`: a figure said to be a share of the company's own total
of the same measure is a part of it (a subsidiary's, a segment's), not the total; so is one said to be a
share of a named group (`营业收入11.51亿元，占某某集团比例的3.21%`: 比例 right after the figure is the
share of the group's same measure), a member of that group."""
_RANKED_LEAD_RE = re.compile(
    r"最(?:高|低|大|小|多|少|快|慢)的(?:是|为|则是|当属)[^，,。；;]{2,16}[，,]\s?(?:实现了?|录得|达到?|为)?\s?$"
)
"""`上半年净利润同比增幅最大的是圆通速递，实现净利润17.71亿元`: the clause before names the one that ranks
first among many (a round-up of companies, of parts): the figure after it is that one's."""
_PRIOR_SENTENCE_LEAD_RE = re.compile(
    r"(?:而|但|然而|相比之下[，,]?)?\s?(?:去年同期|上年同期|上一年同期)(?!相比|比较|的?基数)"
)
"""`而去年同期只有存量别墅在售，实现净利润1541.43万元`: a sentence that opens on last year's same period, and
names no other period before the figure, states that period's figure."""
_PRIOR_CLAUSE_RE = re.compile(r"\s?(?:而|但|然而)?\s?(?:去年同期|上年同期|上一年同期)\s?")
"""`…同比由盈转亏，上一年同期，陕西黑猫实现归属净利润约为1.05亿元`: a clause that is last year's same
period and nothing else, set before the clause it dates as a sentence's opening time is."""
_THIS_PERIOD_WORD_RE = re.compile(r"本期|当期|本报告期|报告期|今年|本年|目前|现在")
_HIGHEST_PART_RE = re.compile(
    r"最(?:高|低|大|小|多|少)的(?:是|为|则是|当属)|最(?:高|低)(?:是|为)[\u4e00-\u9fff]"
)
"""Between a label and its number, the part that stands highest or lowest (`最高的是生物制剂，达到…`)."""
_RANGE_TAIL_RE = re.compile(r"\s?[至到~～\-–—－]\s?[0-9][0-9.,]*\s?(?:万|亿|千|百)*\s?\S{0,4}")
_OTHER_AMOUNT_GAP_RE = re.compile(r"金额|总额|总价|价款|对价|余额|套现|出售|转让|募集|募资")
"""Words naming another amount between a label and a number: the number is that amount."""
_NEW_ITEM_GAP_RE = re.compile(r"[（(]\s?[0-9]{6}(?:\.[A-Za-z]{2})?\s?[)）]")
"""A stock code between a label and a number: a list of headlines, the number another item's."""
_WORDED_VALUE_GAP_RE = re.compile(r"(?:不足|不到|未达|低于|超过|逾)\s?(?:百万|千万|亿|万)")
_SHARE_OF_RE = re.compile(r"[0-9.]+\s?[%％]\s?的\s?$")
_THEN_RE = re.compile(r"当时|那时|彼时")
_RATIO_GAP_RE = re.compile(r"比值|比率|比例|占比|倍数")
_RATE_LEVELS = ("gross_margin", "net_margin", "roe", "roe_deducted")
_HELD_LEVEL_RE = re.compile(r"(?:稳定|维持|保持|徘徊|稳)在\s?(?:约)?\s?$")
_CHANGE_TO_RE = re.compile(r"(?:提高|提升|增加|上升|下降|减少|下滑|降低|回升|回落|收窄|扩大)\s?$")


def _rate_change_to_level(reading: Reading, index: int, metric: str) -> bool:
    """`综合毛利率同比提高0.59%至36.53%`: a rate's change, then 至 the level it reached (the change printed
    in % as in points), not a range of two rates: a range of margins after a change word is no reading.
    Only for a rate's level; `同比增长40%至60%` stays a range of growth rates."""
    mentions = reading.scanned.mentions
    if metric not in _RATE_LEVELS or index == 0:
        return False
    before, mention = mentions[index - 1], mentions[index]
    between = reading.text[before.end : mention.start].strip()
    lead = reading.folded[max(0, before.folded_start - 6) : before.folded_start]
    return between in ("至", "到") and bool(_CHANGE_TO_RE.search(lead))


_CHANGE_NOTE_RE = re.compile(r"\s?(?:pct|pp|ppt|bps?|个百分点)", re.IGNORECASE)


def _in_number_run(reading: Reading, index: int) -> bool:
    """Whether the number is one of a run of numbers joined by `/` or `\\` (a list of periods or items)."""
    text = reading.text
    mentions = reading.scanned.mentions
    mention = mentions[index]
    for j, ahead in ((index + 1, True), (index - 1, False)):
        if not 0 <= j < len(mentions):
            continue
        other = mentions[j]
        between = text[mention.end : other.start] if ahead else text[other.end : mention.start]
        joint = between.strip()
        if joint == "、" and mention.kind == other.kind == "money":
            return True  # `归母净利润为1.19亿元、1.55亿元、2.10亿元`: one label, a run of years' amounts
        if joint in ("/", "\\") and not _CHANGE_NOTE_RE.match(text, other.end):
            if {mention.kind, other.kind} == {"money", "percent"}:
                continue  # `归母净利5.05亿元/-2.20%`: an amount and its change, not a list
            return True
    return False


_GLUED_NEXT_RE = re.compile(r"-?[0-9]")


def _glued_cell(folded: str, mention: Mention) -> bool:
    """A percent run straight into the next number (`毛利率31.7%29.1%27.8%`): a table's row a PDF extraction
    printed with nothing between its cells, whose columns (years, quarters) only its header says; the
    words before it are the row's label, not a sentence that dates the first cell."""
    end = mention.folded_end
    return (
        mention.kind == "percent"
        and folded[end - 1 : end] in ("%", "％")
        and bool(_GLUED_NEXT_RE.match(folded, end))
    )


def _approx(folded: str, mention: Mention, gap: str) -> bool:
    end = mention.folded_end
    return bool(_APPROX_BEFORE_RE.search(gap[-6:]) or _APPROX_AFTER_RE.match(folded[end : end + 4]))


_LONG_SENTENCE = 400
"""How far back a sentence's start is looked for when the usual window ends inside it."""


_SPAN_REACHED_RE = re.compile(r"(?:从|由)[^，,；;。]{0,30}?(?:至|到)\s?$")
"""A move from one level to another, the number right after its 至
(`2014-2019年，毛利率从21.98%提升至32.05%`)."""


def _span_last_year(span: PeriodMention) -> PeriodMention:
    """`2014-2019年，毛利率从21.98%提升至32.05%，带动净利率从4.98%提升至8.25%`: the level a move over a span
    of whole years reached (the number after 至) is the span's last year's, as its starting level (after 从)
    is the first year's; the span's years, a list no single figure stands for, date nothing else."""
    return PeriodMention(span.start, span.end, Period(span.years[-1], "FY"), "period")


def period_for(reading: Reading, lo: int, pos: int, sentence_lo: int) -> PeriodMention | None:
    """The period a number at `pos` is for: the last the clause [lo, pos) names, else the last an earlier
    clause of its sentence names (`其中，2020年第二季度…；实现归母净利2.12亿元`), a comparison's period
    (`较2019年同期`) aside."""
    folded = reading.folded
    named = [
        p
        for p in reading.periods_in(lo, pos)
        if p.kind != "date"
        and not _compared_base(folded, max(lo, p.start - 4), p.start, p.end, pos)
        and not _closed_comparison(folded, max(lo, p.start - 4), p.start, p.end, pos)
        and not _closed_same_period(folded, p, pos)
        and not _rate_aside(reading, p, pos)
        and not _compound_growth_span(folded, p, pos)
    ]
    if named:
        last = named[-1]
        if last.period is not None and last.period.sub == LAST_QUARTER:
            # `2022年第一季度，公司实现营业收入45.68亿元，…，单季度毛利率回升至29.48%`: that quarter's own
            quarters = [
                p
                for p in reading.periods_in(sentence_lo, last.start)
                if p.period is not None and p.period.sub in ("Q1", "Q2", "Q3", "Q4")
            ]
            if quarters:
                return quarters[-1]
        return _with_sentence_year(folded, last, reading.periods_in(sentence_lo, last.start), sentence_lo)
    earlier = [
        p
        for p in reading.periods_in(sentence_lo, lo)
        if p.kind != "date"
        and not compared_base(folded, p, sentence_lo)
        and not folded.startswith("同期", p.end)
        and not _rate_aside(reading, p, lo)
        and not _compound_growth_span(folded, p, lo)
    ]
    if earlier and _quarter_marked_clause_by_clause(folded, earlier, sentence_lo, pos):
        return None
    if not earlier:
        return None
    return _with_sentence_year(
        folded, earlier[-1], reading.periods_in(sentence_lo, earlier[-1].start), sentence_lo
    )


def _with_sentence_year(
    folded: str, period: PeriodMention, before: list[PeriodMention], sentence_lo: int
) -> PeriodMention:
    """`2020年上半年疫情背景下，…上半年嗨体收入同比增长58%，带动公司归母净利润…达1.5亿元`: a clause's yearless
    half or quarter repeats the one its sentence opened on (the sentence's first period, the same part with
    its year), so it is that year's, not the main period's year (which may be the last full year's). A
    comparison's base (`较19H1增长37.42%`) opens nothing."""
    p = period.period
    if p is None or p.year is not None or not p.sub:
        return period
    opening = next((m for m in before if m.kind != "date"), None)
    q = opening.period if opening is not None else None
    if (
        opening is None
        or q is None
        or q.year is None
        or q.sub != p.sub
        or compared_base(folded, opening, sentence_lo)
    ):
        return period
    return replace(period, period=Period(q.year, p.sub))


_PART_OPENING_RE = re.compile(r"\s?其中")


def _forecasts_part(reading: Reading, sent_lo: int, pos: int) -> bool:
    """`预计归母净利润有望达到2.44亿元，同比增长104.80%；其中，21Q3归母净利0.52亿元`: a `；` item that opens
    on 其中 breaks down the figure before it, so it is a forecast when that is; one that opens on the 实现 a
    预计 before it governs goes on with the forecast (`预计2022年实现营业收入89.18亿元…；实现归母净利润…`)."""
    folded = reading.folded
    if sent_lo == 0 or folded[sent_lo - 1] not in "；;":
        return False
    earlier = _expectations_blanked(folded[reading.stop_start(sent_lo - 1) : sent_lo])
    if _PART_OPENING_RE.match(folded, sent_lo, pos):
        return bool(FORECAST_RE.search(earlier))
    return bool(_SAME_VERB_RE.match(folded, sent_lo, pos) and _FORECAST_VERB_RE.search(earlier))


_ANNUAL_REPORT_RE = re.compile(r"(?P<y>20[0-9]{2})\s?(?:年报|年年报|年度报告|年年度报告)")
_LAST_YEAR_WHOLE_RE = re.compile(r"去年(?=全年|实现|营业|营收|收入|归母|净利)")


def _report_year_as_last_year(reading: Reading, lead: str, sent_lo: int, pos: int) -> str:
    """`从东方生物4月28日晚发布2020年报中，我们可以看到东方生物去年全年实现营业收入32.65亿元`: after the
    sentence names the year's annual report (published the year after), 去年 is that report's year, the
    document's own, no prior year; `去年同期` still is."""
    main = reading.main
    if main is None or main.sub != "FY" or "去年" not in lead:
        return lead
    years = [int(m.group("y")) for m in _ANNUAL_REPORT_RE.finditer(reading.folded, sent_lo, pos)]
    if not years or years[-1] != main.year:
        return lead
    return _LAST_YEAR_WHOLE_RE.sub("  ", lead)


_SAME_VERB_RE = re.compile(r"\s?实现")
_FORECAST_VERB_RE = re.compile(r"(?:预计|预测|预期|" + _PREANNOUNCING_VERB + r")[^，,；;。]{0,14}实现")


_ASIDE_LEAD_RE = re.compile(r"其中[，,]?\s?$")
_COMPOUND_RE = re.compile(
    r"复合(?:年均)?(?:增速|增长率|增长|增幅)|年均复合|(?<![A-Za-z])CAGR(?![A-Za-z])", re.IGNORECASE
)


def _compound_growth_span(folded: str, period: PeriodMention, lo: int) -> bool:
    """`2022年实现营业收入19.6亿元，2018-2022年复合增速19.5%，实现归母净利润2.1亿元`: a span of years whose
    own clause (before the number's) states a compound growth rate is that rate's; the clauses after it
    are still on the period before it."""
    if period.kind != "range":
        return False
    end = _CLAUSE_END_RE.search(folded, period.end, lo)
    return end is not None and bool(_COMPOUND_RE.search(folded, period.end, end.start()))


def _rate_aside(reading: Reading, period: PeriodMention, lo: int) -> bool:
    """`2020年上半年，公司实现主营业务收入1383亿元，同比增长4.0%，其中Q2单季度同比增长6.6%，…；实现归母净利润
    33亿元`: a period opening a 其中 aside that states only changes (each number after a change word) up to
    the `；` that closes it breaks a rate down; the clause after the `；` returns to the sentence's period.
    An aside with a level of its own (`其中，2020年第二季度实现营收…；实现归母净利2.12亿元`,
    `其中2021Q4的毛利率28.9%，…；净利率为8.6%`) still governs the clauses after it."""
    folded = reading.folded
    if not _ASIDE_LEAD_RE.search(folded[max(0, period.start - 4) : period.start]):
        return False
    cut = max(folded.rfind(ch, period.end, lo) for ch in "；;")
    if cut < 0:
        return False
    periods = reading.periods_in(period.start, cut)
    levels = [
        m
        for m in reading.mentions_in(period.end, cut)
        if not (
            m.kind == "points"
            or CHANGE_RE.search(folded[max(period.end, m.folded_start - 12) : m.folded_start])
            or any(p.start <= m.folded_start < p.end for p in periods)  # the `1` of `Q1`
        )
    ]
    if not levels:
        return True
    # `…实现营收4.26亿元，同比下降5%，其中Q2单季度实现2.5亿元，同比增长6.4%；实现归母净利润0.96亿元`: an
    # aside whose one level has no label of its own (the verb alone) breaks down the figure just before it
    return (
        len(levels) == 1
        and bool(_BARE_LEVEL_RE.fullmatch(folded, period.end, levels[0].folded_start))
        and _figure_before_aside(reading, period.start)
    )


_BARE_LEVEL_RE = re.compile(r"\s?(?:单季度?)?\s?(?:实现|录得|为|达到?)\s?")


def _figure_before_aside(reading: Reading, start: int) -> bool:
    """Whether the `；` item an aside's 其中 opens in prints an amount before the 其中."""
    folded = reading.folded
    lo = max(max(folded.rfind(ch, 0, start) for ch in "；;。"), 0)
    return any(m.kind == "money" for m in reading.mentions_in(lo, start))


def _compared_base(folded: str, lead_lo: int, start: int, end: int, pos: int) -> bool:
    """`整体毛利率较2020年全年下滑8.8pct至20.4%`: a period right after a comparison word, with a change and 至
    between it and the number, is what the level moved from, not the level's own period."""
    between = folded[end:pos]
    return bool(
        _COMPARED_END_RE.search(folded[lead_lo:start])
        and level_after_change(between)
        and CHANGE_RE.search(between)
    )


_CLAUSE_END_RE = re.compile(r"[，,；;]")


def _closed_comparison(folded: str, lead_lo: int, start: int, end: int, pos: int) -> bool:
    """`22年营收…至83.69亿元，较19年下滑43.5%，公司录得亏损30.36亿`, `（较19年同期上涨6.1%），公司…实现归母净
    利润3.56亿`: a period right after a comparison word, in a clause that ends before the number, is what an
    earlier figure was compared with; the clauses after it are still on the period before."""
    return bool(_COMPARED_END_RE.search(folded[lead_lo:start]) and _CLAUSE_END_RE.search(folded, end, pos))


def _closed_same_period(folded: str, period: PeriodMention, pos: int) -> bool:
    """`Q1公司营收同比下降72.2%至0.85亿元，仅为2019年同期的10%，归母净亏损0.39亿元`: a year's `同期` is the
    base an earlier figure is measured against; in a clause that ends before the number it names no period
    for the clauses after it."""
    return folded.startswith("同期", period.end) and bool(_CLAUSE_END_RE.search(folded, period.end, pos))


_ALONE_WORDS = ("单季度", "单季")


def _quarter_marked_clause_by_clause(folded: str, earlier: list[PeriodMention], lo: int, pos: int) -> bool:
    """`其中第三季度，公司单季度主营收入5.79亿元；单季度归母净利润0.88亿元；单季度扣非净利润0.86亿元；负债率
    49.42%，毛利率26.8%`: when the quarter's figures mark themselves 单季度 clause by clause (two or more
    `；` clauses), a clause without the mark is no longer the quarter's but the report's own."""
    last = earlier[-1]
    if folded[last.start : last.end] not in _ALONE_WORDS:
        return False
    cut = max(folded.rfind(ch, lo, pos) for ch in "；;")
    if cut < 0 or any(w in folded[cut:pos] for w in _ALONE_WORDS):
        return False
    marked = {
        max(folded.rfind(ch, lo, p.start) for ch in "；;")
        for p in earlier
        if folded[p.start : p.end] in _ALONE_WORDS
    }
    return len(marked) >= 2


def resolved_period(
    reading: Reading, mention: PeriodMention | None, basis: str
) -> tuple[Period | None, str] | None:
    """(period, basis) of a figure from the period its clause names; None for a span of years."""
    main = reading.main
    if mention is None:
        if basis == "prior":
            return previous(main), basis
        return main, basis
    if mention.kind == "range":
        return None
    if mention.kind == "forecast":
        return mention.period, "forecast"
    period = resolve(mention, main)
    if basis == "forecast" and period is not None and period.year is not None and period.sub in ("", "FY"):
        return Period(period.year, "E"), basis  # a full year's forecast: `2025E`
    if period is not None and basis == "prior" and main is not None and period == main:
        period = previous(main)
    if (
        period is not None
        and basis == "actual"
        and main is not None
        and period.year is not None
        and main.year is not None
        and period.year > main.year
        and period.sub in ("", "FY")
    ):
        return Period(period.year, "E"), "forecast"
    return period, basis


def read_prose(reading: Reading) -> tuple[list[Fact], list[Fact]]:
    """(facts, context readings) of every number outside tables; context readings are never facts."""
    facts: list[Fact] = []
    loose: list[Fact] = []
    folded = reading.folded
    mentions = reading.scanned.mentions
    for index, mention in enumerate(mentions):
        pos = mention.folded_start
        if reading.line_start(pos) in reading.table_lines:
            continue  # a table row's numbers are read by column, never by the words before them
        if mention.kind in ("points",):
            continue
        sent_lo, sent_hi = reading.sentence(pos)
        if INJECTION_RE.search(folded, sent_lo, sent_hi):
            continue  # a sentence that gives orders plants its numbers
        aside = reading.prior_aside(pos)
        if aside is not None:
            fact = _aside_figure(reading, index, mention, aside)
        else:
            fact = _read_one(reading, index, mention, sent_lo)
        if fact is None:
            continue
        (facts if fact.tier < TIER_CONTEXT else loose).append(fact)
    return facts, loose


_ASIDE_FILL_RE = re.compile(r"^\s?(?:[：:]\s?)?(?:为|是)?\s?(?:人民币|RMB)?\s?(?:约)?\s?$", re.IGNORECASE)


def _aside_figure(reading: Reading, index: int, mention: Mention, aside: tuple[int, int]) -> Fact | None:
    """`毛利率为32.5%（2024年：30.1%）`, `收入增速为38.29%（上年同期为45.78%）`: a bracket right after a
    figure that opens on an earlier period and holds one number gives that figure's metric for the earlier
    period: the bracket's year, else the figure's own period a year earlier (`上年同期`). The figure before it
    is read as any other; an aside of several numbers (`（2019年：8.5%和6.4%）`) is left unread."""
    folded = reading.folded
    mentions = reading.scanned.mentions
    lo, hi = aside
    m = PRIOR_ASIDE_RE.match(folded, lo)
    if m is None or index == 0:
        return None
    inside = reading.mentions_in(m.end("when"), hi)  # the year `2024` of `2024年` is no figure
    if len(inside) != 1 or inside[0].folded_start != mention.folded_start:
        return None
    end = mention.folded_end
    if not _ASIDE_FILL_RE.match(folded[m.end("when") : mention.folded_start]) or folded[end : hi - 1].strip():
        return None
    j = index - 1
    while j >= 0 and mentions[j].folded_start >= lo:
        j -= 1
    if j < 0:
        return None
    before = mentions[j]
    if folded[before.folded_end : lo].strip() or before.kind != mention.kind:
        return None
    figure = _read_one(reading, j, before, reading.sentence(before.folded_start)[0])
    if figure is None or figure.basis not in ("actual", "growth") or figure.period is None:
        return None
    own = figure.period
    when = m.group("when")
    year = re.match(r"20[0-9]{2}", when)
    if year is not None:
        if own.year is None or int(year.group(0)) >= own.year:
            return None
        if own.sub not in ("", "FY") and "同期" not in when:
            return None  # `1Q20…增速为11.4%（2019年：8.5%）`: the year before's whole, or its quarter? unsaid
        period = Period(int(year.group(0)), own.sub)
    else:
        period = previous(own)
        if period is None or period.year is None:
            return None
    value = mention.base
    if figure.value < 0 and not before.printed.lstrip().startswith(("-", "－", "−")) and not mention.negative:
        value = -value  # `净亏损75亿（2019年为71亿）`: a loss the words say is the aside's loss too
    return replace(
        figure,
        period=period,
        basis="prior" if figure.basis == "actual" else "growth",
        value=value,
        unit=figure.unit if figure.basis == "growth" else printed_unit(mention),
        start=mention.start,
        end=mention.end,
        approx=False,
        mention=mention,
    )


_LABEL_RUN_JOINS = ("、", "和", "及", "与")


def _last_of_label_run(reading: Reading, label: Label, sent_lo: int) -> bool:
    """Whether the label ends a run of labels joined by 、 or 和 (`营业收入、归母净利润`, `收入和归母净利润`):
    the number after such a run belongs to one of them by position, which task/lists.py pairs when the
    numbers are a run as long; the nearest label is a guess."""
    earlier = reading.labels_in(sent_lo, label.start)
    return bool(earlier) and reading.folded[earlier[-1].end : label.start].strip() in _LABEL_RUN_JOINS


def _prior_clause(reading: Reading, label: Label, sent_lo: int) -> re.Match[str] | None:
    """The clause right before the label's, when it is last year's same period alone (`，上一年同期，陕西黑猫
    实现归属净利润…`): a time fronted as its own clause dates the clause after it, as a sentence's opening
    time does; a clause that says more (`与上年同期相比，`) is no such time."""
    lo = reading.start_of(label.start, CLAUSE_BREAKS, 40)
    if lo <= sent_lo + 1:
        return None
    prev_lo = max(reading.start_of(lo - 1, CLAUSE_BREAKS, 12), sent_lo)
    return _PRIOR_CLAUSE_RE.fullmatch(reading.folded, prev_lo, lo - 1)


def _prior_sentence(reading: Reading, label: Label, pos: int) -> bool:
    """Whether the sentence opens on last year's same period (`而去年同期只有存量别墅在售，实现净利润
    1541.43万元`) and names no other period (`本期`), no figure of its own and no change between that opening
    and the figure (`上年同期…为104.38亿元，本期实现…122.43亿元`: the second is this period's)."""
    folded = reading.folded
    lo = _sentence_lo(reading, pos)
    m = _PRIOR_SENTENCE_LEAD_RE.match(folded, lo, pos) or _prior_clause(reading, label, lo)
    if m is None or reading.periods_in(m.end(), pos) or reading.labels_in(m.end(), label.start):
        return False
    if _THIS_PERIOD_WORD_RE.search(folded, m.end(), pos):
        return False
    end = reading.end_of(pos, "。；;！？\n", 80)
    return not CHANGE_RE.search(folded, m.end(), end)


def _read_one(reading: Reading, index: int, mention: Mention, sent_lo: int) -> Fact | None:
    folded = reading.folded
    pos = mention.folded_start
    label = reading.label_before(pos, sent_lo)
    if label is None or (_PE_NAMED_AFTER_RE.match(folded, pos) and mention.kind in ("times", "none")):
        return _pe_after(reading, mention)
    if label.metric == "other":
        return None
    if _last_of_label_run(reading, label, sent_lo):
        return None  # `营业收入、归母净利润47.98亿元`: which label the number is, only a list can say
    metric = label.metric
    gap = folded[label.end : pos]
    if len(gap) > _LOOSE_GAP or ENUM_RE.search(gap):
        return None
    if (
        mention.kind == "money"
        and gap.rstrip().endswith(("、", "/"))
        and any(m.kind == "none" for m in reading.mentions_in(label.end, pos))
    ):
        return None  # `收入、187.26、5.04亿元`: the second of a run of numbers, a list the label has lost
    if "money" in METRICS[metric] and _RATIO_GAP_RE.search(gap):
        return None  # `“经营性净现金流/归母净利润”比值达到1.2`: a ratio of the figure, not the figure
    growth = False
    if not _unit_kind_ok(metric, mention):
        inherited = _inherited_unit(reading, mention, sent_lo) if "money" in METRICS[metric] else None
        if inherited is not None:
            mention = replace(mention, kind="money", factor=inherited[0], unit_source="declared")
        elif metric in _RATE_LEVELS and _rate_lost_its_sign(folded, mention):
            mention = replace(mention, kind="percent", factor=1.0, unit_source="declared")
        elif (
            metric in GROWTH_METRICS
            and mention.kind == "percent"
            and _growth_gap(reading, label, mention, gap)
        ):
            growth = True
        else:
            return None
    if metric in _RATE_LEVELS and _HELD_LEVEL_RE.search(gap) and _approx(folded, mention, gap):
        return None  # `毛利率稳定在3%左右`: an approximate level held over time, no period's figure
    if metric in _RATE_LEVELS and (
        _BASE_AFTER_RE.match(folded, pos + len(mention.printed))
        or (_approx(folded, mention, gap) and _LONG_RUN_RE.search(folded, sent_lo, label.start))
    ):
        # `毛利率将在目前30%基础上逐步提升`: the base a change starts from; `长期以来，公司毛利率40%左右`:
        # an approximate level over many years; neither is a period's figure
        return None
    if "money" in METRICS[metric] and _OTHER_AMOUNT_GAP_RE.search(gap):
        return (
            None  # `占公司2019年度经审计营业收入的0.01%)，合同总金额为1483.15万元`: another amount's number
        )
    if _NEW_ITEM_GAP_RE.search(gap):
        return None  # `营业收入或不达标 *ST星美(000892)存暂停上市风险150亿出售…`: a headline list's next item
    if _WORDED_VALUE_GAP_RE.search(gap):
        return None  # `净利润不足百万 大股东套现5021万元`: the label's value said in words; the number not it
    before = folded[max(sent_lo, label.start - 12) : label.start]
    if _SHARE_OF_RE.search(before):
        return None  # `30%的净利润就是15亿`: a share of the figure, not the figure
    if _THEN_RE.search(folded, sent_lo, label.start):
        return (
            None  # `我是1992年回的家化，当时家化的销售额是2亿，毛利率是12%`: a past time's, told as history
        )
    if _threshold(folded, mention, gap) or (
        _in_range(reading, index) and not _rate_change_to_level(reading, index, metric)
    ):
        return None
    if _YEARS_COUNT_LEAD_RE.search(folded, max(sent_lo, label.start - 12), label.start):
        return None  # `3年亏损近50亿元`: a sum over several years
    if _IMPACT_LEAD_RE.search(folded, max(sent_lo, label.start - 12), label.start) and not re.search(
        r"至|到", gap
    ):
        return None  # `影响公司整体毛利率约2%`: an effect's size, not the level
    if _HIGHEST_PART_RE.search(gap):
        return None  # `从毛利率来看，最高的是生物制剂，达到86.72%`: the highest of the parts, not the whole
    if _RANKED_LEAD_RE.search(folded, sent_lo, label.start):
        return None  # `…增幅最大的是圆通速递，实现净利润17.71亿元`: the first of a ranking's, named before
    if _in_number_run(reading, index):
        return None  # `PE为8.8/8.1/7.4倍`: several numbers for one label, a list no reader could pair
    if _glued_cell(folded, mention):
        return None  # `毛利率31.7%29.1%27.8%…`: a table row's first cell, its column unsaid
    lead_lo = max(reading.start_of(label.start, CLAUSE_BREAKS, 40), sent_lo)
    lead = folded[lead_lo : label.start]
    if ENUM_RE.search(lead):
        return None  # `A、B、C分别实现毛利率6.7%、3.8%…`: a list's numbers, read as a list or not at all
    if (
        (metric in _ADJUSTABLE and adjusted_before(folded, sent_lo, lead_lo))
        or _ADJUSTED_LEAD_RE.search(folded, max(sent_lo, lead_lo - 30), label.start)
        or _REMOVED_ASIDE_RE.search(lead)
        or _ADJUSTED_GAP_RE.search(gap)
        or _ADJUSTED_AFTER_RE.match(folded, pos + len(mention.printed))
    ):
        if "money" in METRICS[metric] and mention.kind == "money" and not _revised_estimate(folded, pos):
            reading.adjusted.append((metric, abs(mention.base), mention.start))
        return None  # `剔除股权激励费用后，归母净利润应为3.04亿元`, `毛利率调整后为…`: adjusted by the writer
    family = "pe" if metric in PE_METRICS else metric
    excluded = _EXCLUDED_RE.get(family)
    # a figure named by its own label: another figure's words further back are that figure's (`ROAA
    # 1.28% and return on average equity 14.49%`); only those right before the label qualify it
    near = lead[-6:] if family in ("roe", "pe") else _after_last_figure(reading, lead_lo, label.start)
    if excluded is not None and (
        excluded.search(near) or excluded.search(gap) or excluded.search(label.text)
    ):
        return None
    if "money" in METRICS[metric] and _FOREIGN_RE.search(
        lead + gap + folded[pos : pos + len(mention.printed) + 3]
    ):
        return None
    tail = folded[pos + len(mention.printed) : pos + len(mention.printed) + 20]
    if (
        "money" in METRICS[metric]
        and (joined := _RANGE_TAIL_RE.match(tail))
        and _FOREIGN_RE.search(joined.group(0))
    ):
        return None  # `营收初步数据为3600万至3700万美元`: a range whose currency is printed at its far end
    # forecasts: the sentence before the number (a `；` ends a forecast's reach)
    basis = "actual"
    after = folded[pos + len(mention.printed) : pos + len(mention.printed) + 8]
    # `同期公司毛利率2.1%，同比下降…`, `同期毛利率下降23.5pcts至21.1%`: a change says the level is now
    same_as_before = bool(
        _SAME_PERIOD_LEAD_RE.match(lead)
        and (
            _CHANGE_AFTER_RE.match(after)
            or (CHANGE_RE.search(gap) and level_after_change(gap))
            or _year_named_before(folded[_sentence_lo(reading, lead_lo) : lead_lo])
        )
    )
    if same_as_before:
        lead = lead.replace("同期", "  ", 1)  # the period just named, this year's: no prior figure
    before = _expectations_blanked(folded[sent_lo:pos])
    if not _PREANNOUNCED_RE.search(folded):
        # `药明康德公告，财务部门测算，2022年度上半年公司…实现营业收入177.56亿元`: the company's own
        # accounts of a period that has ended, no forecast (a 业绩预告 anywhere keeps its 测算 a forecast's)
        before = _OWN_ACCOUNTS_RE.sub(lambda m: " " * len(m.group(0)), before)
    hope = _hope_heading(reading, sent_lo, pos)
    if hope is not None:
        before = before[: hope[0] - sent_lo] + " " * (hope[1] - hope[0]) + before[hope[1] - sent_lo :]
    if (
        FORECAST_RE.search(before)
        or _FORECAST_EXTRA_RE.search(before)
        or _MIDPOINT_RE.search(gap)
        or _TAKE_MIDPOINT_RE.search(before)
        or _forecasts_part(reading, sent_lo, pos)
    ):
        basis = "forecast"
    elif (
        PRIOR_RE.search(_report_year_as_last_year(reading, lead, sent_lo, label.start))
        or _prior_sentence(reading, label, pos)
        or _FROM_TO_RE.search(gap[-10:])
        and _TO_AFTER_RE.match(folded[mention.folded_end : mention.folded_end + 16])
    ):
        basis = "prior"  # `由16.32%增至20.87%`: the first is where it came from
    elif not (level_after_change(gap) or _FROM_LEVEL_RE.search(gap)) and (
        # `从2019年66.6%下降6.9ppt至2020年59.7%`: the level 至 leads to, its year between
        PRIOR_RE.search(open_gap := _asides_blanked(gap)) or CHANGE_RE.search(gap)
    ):
        if not growth:
            if (
                mention.kind == "percent"
                and metric in GROWTH_METRICS
                and _growth_gap(reading, label, mention, gap)
            ):
                growth = True
            elif PRIOR_RE.search(open_gap) and not CHANGE_RE.search(gap):
                basis = "prior"
            else:
                return None  # a change (`减少7.97亿元`, `毛利率同比上升4.7`) is no level
    if growth:
        if basis == "actual":
            basis = "growth"
        elif basis == "prior":
            return None
    scope, segment = _subject(reading, label)
    share = _SHARE_OF_WHOLE_AFTER_RE.get(metric)
    if scope == "company" and share is not None and share.match(folded, pos + len(mention.printed)):
        scope, segment = "segment", "占比部分"  # `营业收入12.86亿元，占公司2021年度总收入的40%`: a part's
    aspect = _aspect_subject(reading, label, pos)
    if aspect is not None and scope == "company":
        scope, segment = "segment", aspect
    if scope == "company" and (breakdown := _BREAKDOWN_RE.search(gap)) is not None:
        # `营收分业务看，工程安装服务收入9.18亿元`: the label opens a breakdown; the number is a part's
        scope, segment = "segment", breakdown.group(0)
    if (
        metric == "gross_margin"
        and scope == "company"
        and folded[max(0, label.start - 8) : label.start].isascii()
        and _segment_margin(folded, label.start)
    ):
        scope, segment = "segment", folded[max(0, label.start - 8) : label.start].strip()
    rank = label.rank
    if label.text.startswith("主营业务") and scope == "company":
        segment = "主营业务"  # the main business's margin: the company's, ranked below a plain 毛利率
    elif scope == "company" and segment == "主营业务":
        rank = max(rank, 1)  # `主营业务营收…；毛利率…`: as if labelled `主营业务毛利率`
    stop_lo = reading.stop_start(pos)
    when = period_for(reading, sent_lo, pos, stop_lo)
    if when is None and same_as_before and stop_lo > 0:
        # `…其中Q3同比降11.2%至9.3亿。同期公司毛利率2.1%`: the last period the sentence before names
        when = period_for(reading, stop_lo, stop_lo, reading.stop_start(stop_lo - 1))
    if when is None and stop_lo > 0 and _bare_verb_sentence(reading, stop_lo, label.start):
        # `四季度实现营收3.94亿，同比增25.94%，季度营收逐步增长。实现归母净利润1.35亿`: the period the
        # sentence before opens on
        when = _opening_period_before(reading, stop_lo)
    if when is None and stop_lo > 0 and (wide := reading.stop_start(pos, _LONG_SENTENCE)) < stop_lo:
        # `冠城大通2023一季报显示，公司主营收入…；归母净利润…；…，财务费用4978.84万元，毛利率16.31%`: a long
        # sentence's period, named further back than a sentence is looked at
        when = period_for(reading, sent_lo, pos, wide)
    if when is None and stop_lo > 0:
        amount = metric not in _RATE_LEVELS
        when = _previous_sentence_quarter(reading, stop_lo, label.start, topic_only=amount)
    if when is None and metric in _RATE_LEVELS:
        when = _paragraph_quarter(reading, label.start)
    if metric in PE_METRICS:
        return _pe(reading, label, mention, gap, lead, basis, scope, segment)
    if when is not None and when.kind == "range" and basis == "actual" and _SPAN_REACHED_RE.search(gap):
        when = _span_last_year(when)
    got = resolved_period(reading, when, basis)
    if got is None:
        return None
    period, basis = got
    if when is None and period is not None and period.sub == "FY" and "环比" in folded[sent_lo:pos]:
        # `2022年一季度毛利率水平恢复。…另一方面，公司毛利率环比上升7ppt至36.39%`: a level moved from the
        # quarter before is a quarter's, whatever the document's own year; a sentence naming none is no year's
        return None
    if mention.kind == "none" and (len(gap) > _BARE_GAP or re.search(r"[0-9]", gap)):
        return None
    limit = _LABEL_GAP_ASCII if gap.isascii() else _LABEL_GAP
    first = (
        _first_after(reading, index, label, metric, growth)
        or bool(_FROM_LEVEL_RE.search(gap))
        or _rate_change_to_level(reading, index, metric)
    )
    strict = first and len(gap) <= limit
    if (
        label.text == "收入"
        and not _COMPANY_INCOME_LEAD_RE.search(lead)
        and not any(
            lab.metric == "net_profit"
            for lab in reading.labels_in(reading.stop_start(label.start), reading.end_of(pos, STOPS, 200))
        )
    ):
        return (
            None  # a bare 收入 is the revenue only beside the company's profit (`收入687亿元，归母净利润…`)
        )
    return Fact(
        metric=metric,
        period=period,
        scope=scope,
        basis=basis,
        value=mention.base,
        unit="%" if growth else printed_unit(mention),
        start=mention.start,
        end=mention.end,
        source="label",
        label=label.text,
        rank=rank,
        tier=TIER_TEXT if strict else TIER_CONTEXT,
        segment=segment,
        approx=_approx(folded, mention, gap),
        mention=mention,
    )


_HOPE_HEADING_RE = re.compile(r"(?:有望|可望)[^，,。；;：:]{0,12}[：:]")


def _after_last_figure(reading: Reading, lead_lo: int, label_start: int) -> str:
    """The lead of a label, cut after a figure printed right before it with nothing but blanks between
    (`销售毛利率 35.556%净利润 102,350,560.62元`, a quote page's run of labels and values): the words before
    that figure are its own label's, not a qualifier of the next one."""
    folded = reading.folded
    lead = folded[lead_lo:label_start]
    before = reading.mentions_in(lead_lo, label_start)
    if before:
        end = before[-1].folded_end
        if lead_lo < end <= label_start and not folded[end:label_start].strip():
            return folded[end:label_start]
    return lead


def _hope_heading(reading: Reading, sent_lo: int, pos: int) -> tuple[int, int] | None:
    """`王府井发布2023年一季报，疫情后业绩有望逐步修复：23Q1实现营收33.67亿元`: a hope the writer puts as a
    heading before a colon, then the document's own period and what it achieved (实现), with no forecast
    word after the colon: the figures are the report's, the hope is about what comes next. The span of the
    heading, or None (a figure of another period after it, `有望高增：2024年实现营收…`, stays a forecast)."""
    folded = reading.folded
    found = list(_HOPE_HEADING_RE.finditer(folded, sent_lo, pos))
    main = reading.main
    if not found or main is None:
        return None
    m = found[-1]
    after = folded[m.end() : pos]
    if "实现" not in after or FORECAST_RE.search(after) or _FORECAST_EXTRA_RE.search(after):
        return None
    periods = [p for p in reading.periods_in(m.end(), pos) if p.kind != "date"]
    if not periods or any(resolve(p, main) != main for p in periods):
        return None
    return m.start(), m.end()


_BARE_VERB_OPENING_RE = re.compile(r"\s?(?:实现|录得)")


def _bare_verb_sentence(reading: Reading, stop_lo: int, label_start: int) -> bool:
    """`四季度实现营收3.94亿，…，季度营收逐步增长。实现归母净利润1.35亿，同比增12.72%`, `Q3单季营收16.71亿元，
    同比-2.1%。实现归母净利润为1.46亿元，…，毛利率为23.7%`: a sentence opening on a bare verb (实现, 录得)
    and naming no period before the label has left out its subject and its period, both the sentence's before
    it in the same paragraph: it goes on with that sentence (read as the document's period, the quarter's
    figures stood against the year's and neither was kept)."""
    if not _BARE_VERB_OPENING_RE.match(reading.folded, stop_lo) or reading.periods_in(stop_lo, label_start):
        return False  # the sentence names a period of its own before the label
    return not PARAGRAPH_BREAK_RE.search(reading.folded, max(0, stop_lo - 1), label_start)


_PERIOD_OPENING_RE = re.compile(
    r"^(?:[0-9一二三四五六七八九十]{1,2}\s?[)）、.]\s?)?(?:本公司|公司|本集团|集团)?$"
)


def _opening_period_before(reading: Reading, stop_lo: int) -> PeriodMention | None:
    """The period the sentence before `stop_lo` opens on (`四季度实现营收…。`, `1）2019实现营收…。`,
    `2021年前三季度公司实现营收…。`) when it names no other: what a sentence opening on a bare verb goes on
    with. One opening on an aside (`其中Q3实现营收114.45亿元…。实现归母净利润27.61亿元`) gives none: the
    writer is back on the period before the aside."""
    folded = reading.folded
    prev_lo = reading.start_of(stop_lo - 1, SENTENCE_BREAKS, 120)  # `；2）2019Q4实现营收…。`: its own item
    named = [p for p in reading.periods_in(prev_lo, stop_lo) if p.kind != "date"]
    if not named or named[0].period is None:
        return None
    if not _PERIOD_OPENING_RE.match(folded[prev_lo : named[0].start].strip()):
        return None
    if not _one_period(folded, named, prev_lo):
        return None
    return named[0]


_OPENING_FILLER_RE = re.compile(r"^(?:(?:另外|此外|同时)[，,]?\s?)?(?:公司|本公司|其|整体|综合|销售|单季)?$")


def _paragraph_quarter(reading: Reading, label_start: int) -> PeriodMention | None:
    """`三季度，公司实现收入65.55亿元…。公司快运收入回归增长…。公司实现毛利5.03亿元（-36.6%），毛利率7.7%`:
    a rate naming no period, in a paragraph that opens on a quarter alone and names no other period before
    it (a comparison's base, `环比上半年`, aside), is that quarter's: the paragraph is about the quarter;
    kept as the nine months' it would be a wrong figure."""
    folded = reading.folded
    main = reading.main
    if main is None or main.sub in ("Q1", "Q2", "Q3", "Q4"):
        return None
    breaks = reading.matches_before(PARAGRAPH_BREAK_RE, label_start)
    par_lo = breaks[-1].end() if breaks else 0
    named = [p for p in reading.periods_in(par_lo, label_start) if p.kind != "date"]
    if not named or folded[par_lo : named[0].start].strip():
        return None
    first = named[0]
    if first.period is None or first.period.sub not in ("Q1", "Q2", "Q3", "Q4"):
        return None
    if not _one_period(folded, named, par_lo):
        return None
    return first


def _previous_sentence_quarter(
    reading: Reading, stop_lo: int, label_start: int, topic_only: bool = False
) -> PeriodMention | None:
    """`2021Q4归母净利润同比增29.37%，净利率13.70%。毛利率为30.02%，…`: a rate opening a sentence that names
    no period, right after a sentence that opens on a quarter alone in the same paragraph, is that
    quarter's (the writer goes on about the quarter); kept as the year's it would be a wrong figure.
    With `topic_only` (an amount: `其中2Q22主因低基数效应，环比提速。营收63.22亿元，…`) only when the
    sentence before is the quarter's heading, printing no figure of its own: the amounts that follow are
    the quarter's, not the half year's the text opened on."""
    folded = reading.folded
    if not topic_only and not _OPENING_FILLER_RE.match(folded[stop_lo:label_start].strip()):
        return None
    if PARAGRAPH_BREAK_RE.search(folded, max(0, stop_lo - 1), label_start):
        return None  # a paragraph break: the sentence starts afresh
    prev_lo = reading.start_of(stop_lo - 1, SENTENCE_BREAKS, 120)  # `；2）2019Q4实现营收…。`: its own item
    named = [p for p in reading.periods_in(prev_lo, stop_lo) if p.kind != "date"]
    if not named:
        return None
    first = named[0]
    main = reading.main
    opening = folded[prev_lo : first.start].strip()
    if (
        first.period is None
        or first.period.sub not in ("Q1", "Q2", "Q3", "Q4")
        or main is None
        or main.sub in ("Q1", "Q2", "Q3", "Q4")
        or opening not in (("", "其中", "其中，", "其中,") if topic_only else ("",))
    ):
        return None
    if topic_only and (re.search(r"[0-9]", folded[first.end : stop_lo]) or len(named) > 1):
        return None
    return first


def _growth_gap(reading: Reading, label: Label, mention: Mention, gap: str) -> bool:
    """A growth rate right after its label's own figure (`营业收入90.2亿，同比增长41.8%`): a change word just
    before it and at most one number (the figure) between the label and it (`收入\\净利22.9\\2.95亿，同比增
    15.5%` is a list of two: its rates are not the nearest label's)."""
    if not CHANGE_RE.search(gap[-10:]):
        return False
    between = reading.mentions_in(label.end, mention.folded_start)
    return len(between) <= 1


def _first_after(reading: Reading, index: int, label: Label, metric: str, growth: bool) -> bool:
    """Whether no number of the label's kind comes between the label and this one (mentions are in text
    order: only those after the label are walked)."""
    mentions = reading.scanned.mentions
    j = index - 1
    while j >= 0 and mentions[j].folded_start >= label.end:
        m = mentions[j]
        if growth:
            if m.kind == "percent":
                return False
        elif _unit_kind_ok(metric, m):
            return False
        j -= 1
    return True


def _segment_margin(folded: str, start: int) -> bool:
    """`动力电池系统毛利率`: a margin label preceded by a business name is a segment's, not the company's."""
    before = folded[max(0, start - 8) : start]
    if before.isascii():
        word = re.search(r"([A-Za-z']+)[ \t]*$", before)
        return word is not None and word.group(1).lower() not in {
            "the", "its", "overall", "blended", "consolidated", "group", "company", "total", "and", "a",
            "with", "while", "of", "whose", "as", "our", "to", "in",
            "fy", "ytd", "ttm", "ltm",  # a period (`21FY毛利率`), not a business
        }  # fmt: skip
    return SEGMENT_MARGIN_PREFIX_OK.search(before) is None


def _pe(
    reading: Reading,
    label: Label,
    mention: Mention,
    gap: str,
    lead: str,
    basis: str,
    scope: str,
    segment: str | None,
) -> Fact | None:
    """A PE after its label: TTM, dynamic, static, or a forecast's (a year named: `2025年PE 18倍`)."""
    metric = label.metric
    if mention.kind == "none" and (len(gap) > _BARE_GAP or re.search(r"[0-9]", gap)):
        return None
    if scope != "company" or basis in ("prior", "growth"):
        return None
    if _AVERAGE_BEFORE_RE.search(reading.folded, max(0, label.start - 6), label.start):
        # `可比上市公司，平均PE(TTM)为78倍`: an average (the peers', a past span's), not the company's now
        return None
    years = [
        p
        for p in reading.periods_in(reading.start_of(label.start, CLAUSE_BREAKS, 40), mention.folded_start)
        if p.period is not None and p.period.year is not None
    ]
    if basis == "forecast" or metric == "pe_forward":
        metric, basis = "pe_forward", "forecast"
    elif metric == "pe_ttm" and label.rank > 0 and not _TTM_RE.search(label.text + gap):
        if years or _YEAR_GLUED_RE.search(reading.folded, max(0, label.start - 6), label.start):
            # `2025年PE 18倍`, `对应 19PE13X`: a forecast or a static PE, whatever year the report is for
            return None
        clause = reading.folded[reading.start_of(label.start, CLAUSE_BREAKS, 40) : label.start]
        if _RELATIVE_YEAR_RE.search(clause + gap):
            return None  # `目前市值对应明年PE仅为29x`: a year named by where it lies, not by its number
        earlier = reading.labels_in(reading.stop_start(label.start), label.start)
        if any(lab.metric == "eps" for lab in earlier):
            # `最新的第一季报显示，…基本每股收益0.029元，市盈率728.57`: the price over the EPS the sentence
            # just printed, a report period's (a quarter's, a year's), not the trailing twelve months'
            return None
    period = Period(None, "TTM") if metric == "pe_ttm" else None
    return Fact(
        metric=metric,
        period=period,
        scope="company",
        basis=basis,
        value=mention.base,
        unit=printed_unit(mention),
        start=mention.start,
        end=mention.end,
        source="label",
        label=label.text,
        rank=label.rank,
        tier=TIER_TEXT if len(gap) <= _LABEL_GAP else TIER_CONTEXT,
        segment=segment,
        mention=mention,
    )


_AVERAGE_BEFORE_RE = re.compile(r"(?:平均|均值|中位数|中值)[ \t]?(?:的)?[ \t]?$")
"""`平均PE(TTM)`, `行业均值的PE`: a PE label qualified as an average or a median is a group's or a span's
figure (comparable companies', an industry's, a year's range), never the company's trailing PE today."""


def _pe_after(reading: Reading, mention: Mention) -> Fact | None:
    """A PE printed before its label (`13.8x trailing P/E`), unless the clause makes it a forecast."""
    folded = reading.folded
    m = _PE_AFTER_RE.match(folded, mention.folded_start)
    if m is None:
        return None
    lo = reading.start_of(mention.folded_start, CLAUSE_BREAKS, 40)
    clause = folded[lo : m.end()]
    if FORECAST_RE.search(clause) or _EXCLUDED_RE["pe"].search(clause):
        return None
    return Fact(
        metric="pe_ttm",
        period=Period(None, "TTM"),
        scope="company",
        basis="actual",
        value=mention.base,
        unit="倍",
        start=mention.start,
        end=mention.end,
        source="label",
        label=m.group(0),
        rank=0,
        tier=TIER_TEXT,
        mention=mention,
    )
