
/root/.pyenv/versions/3.13.0/lib/libpython3.13.so.1.0:     file format elf64-x86-64


Disassembly of section .text:

0000000000265f40 <take_gil>:
  265f40:	push   %r15
  265f42:	push   %r14
  265f44:	mov    %rdi,%r14
  265f47:	push   %r13
  265f49:	push   %r12
  265f4b:	push   %rbp
  265f4c:	push   %rbx
  265f4d:	sub    $0x38,%rsp
  265f51:	call   89640 <__errno_location@plt>
  265f56:	mov    %r14,%rdi
  265f59:	mov    %rax,0x10(%rsp)
  265f5e:	mov    (%rax),%eax
  265f60:	mov    %eax,0x18(%rsp)
  265f64:	call   294820 <_PyThreadState_MustExit>
  265f69:	test   %eax,%eax
  265f6b:	jne    2660af <take_gil+0x16f>
  265f71:	mov    0x10(%r14),%rax
  265f75:	mov    0x10(%rax),%r15
  265f79:	mov    %rax,0x8(%rsp)
  265f7e:	lea    0x50(%r15),%r12
  265f82:	mov    %r12,%rdi
  265f85:	call   8aac0 <pthread_mutex_lock@plt>
  265f8a:	mov    %eax,0x1c(%rsp)
  265f8e:	test   %eax,%eax
  265f90:	jne    26618e <take_gil+0x24e>
  265f96:	lea    0x10(%r15),%rbp
  265f9a:	lea    0x20(%rsp),%rbx
  265f9f:	nop
  265fa0:	mov    0x0(%rbp),%eax
  265fa3:	test   %eax,%eax
  265fa5:	je     266030 <take_gil+0xf0>
  265fab:	mov    (%r15),%rdi
  265fae:	mov    $0x1,%eax
  265fb3:	mov    %rbx,%rsi
  265fb6:	mov    0x18(%r15),%r13
  265fba:	test   %rdi,%rdi
  265fbd:	cmove  %rax,%rdi
  265fc1:	call   2aa1e0 <_PyThread_cond_after>
  265fc6:	lea    0x20(%r15),%rdi
  265fca:	mov    %rbx,%rdx
  265fcd:	mov    %r12,%rsi
  265fd0:	call   87450 <pthread_cond_timedwait@plt>
  265fd5:	cmp    $0x6e,%eax
  265fd8:	je     265ff8 <take_gil+0xb8>
  265fda:	test   %eax,%eax
  265fdc:	je     265fa0 <take_gil+0x60>
  265fde:	lea    0x12d9fc(%rip),%rsi        # 3939e1 <Py_Version+0x231>
  265fe5:	lea    0x12dadc(%rip),%rdi        # 393ac8 <__func__.6>
  265fec:	call   87650 <_Py_FatalErrorFunc@plt>
  265ff1:	nopl   0x0(%rax)
  265ff8:	mov    0x0(%rbp),%eax
  265ffb:	test   %eax,%eax
  265ffd:	je     265fa0 <take_gil+0x60>
  265fff:	cmp    %r13,0x18(%r15)
  266003:	jne    265fa0 <take_gil+0x60>
  266005:	mov    %r14,%rdi
  266008:	mov    0x8(%r15),%r13
  26600c:	call   294820 <_PyThreadState_MustExit>
  266011:	test   %eax,%eax
  266013:	jne    266158 <take_gil+0x218>
  266019:	lock orq $0x1,0x18(%r13)
  26601f:	movl   $0x1,0x1c(%rsp)
  266027:	jmp    265fa0 <take_gil+0x60>
  26602c:	nopl   0x0(%rax)
  266030:	lea    0xa8(%r15),%rbx
  266037:	mov    %rbx,%rdi
  26603a:	call   8aac0 <pthread_mutex_lock@plt>
  26603f:	test   %eax,%eax
  266041:	jne    26617b <take_gil+0x23b>
  266047:	movl   $0x1,0x10(%r15)
  26604f:	mov    0x8(%r15),%rax
  266053:	cmp    %rax,%r14
  266056:	je     266061 <take_gil+0x121>
  266058:	mov    %r14,0x8(%r15)
  26605c:	addq   $0x1,0x18(%r15)
  266061:	lea    0x78(%r15),%rdi
  266065:	call   86b60 <pthread_cond_signal@plt>
  26606a:	test   %eax,%eax
  26606c:	jne    2661b4 <take_gil+0x274>
  266072:	mov    %rbx,%rdi
  266075:	call   8af60 <pthread_mutex_unlock@plt>
  26607a:	test   %eax,%eax
  26607c:	jne    2661a1 <take_gil+0x261>
  266082:	mov    %r14,%rdi
  266085:	call   294820 <_PyThreadState_MustExit>
  26608a:	test   %eax,%eax
  26608c:	je     2660b8 <take_gil+0x178>
  26608e:	mov    %r12,%rdi
  266091:	call   8af60 <pthread_mutex_unlock@plt>
  266096:	test   %eax,%eax
  266098:	jne    266145 <take_gil+0x205>
  26609e:	mov    0x8(%rsp),%rdi
  2660a3:	mov    $0x1,%edx
  2660a8:	xor    %esi,%esi
  2660aa:	call   265b10 <drop_gil>
  2660af:	call   8a750 <PyThread_exit_thread@plt>
  2660b4:	nopl   0x0(%rax)
  2660b8:	orb    $0x20,0x20(%r14)
  2660bd:	lea    0x18(%r14),%rbx
  2660c1:	lock andq $0xfffffffffffffffe,0x18(%r14)
  2660c7:	mov    0x8(%rsp),%rax
  2660cc:	mov    0x2c(%rax),%eax
  2660cf:	test   %eax,%eax
  2660d1:	jne    26613d <take_gil+0x1fd>
  2660d3:	call   88440 <PyThread_get_thread_ident@plt>
  2660d8:	mov    0x284bd1(%rip),%rdx        # 4eacb0 <_PyRuntime@@Base-0x3e810>
  2660df:	cmp    0x290(%rdx),%rax
  2660e6:	je     266133 <take_gil+0x1f3>
  2660e8:	mov    0x8(%rsp),%rax
  2660ed:	mov    (%rax),%rdx
  2660f0:	mov    0x18(%r14),%rax
  2660f4:	mov    %rax,%rcx
  2660f7:	xor    %dl,%dl
  2660f9:	xor    %cl,%cl
  2660fb:	cmp    %rcx,%rdx
  2660fe:	je     26610d <take_gil+0x1cd>
  266100:	movzbl %al,%ecx
  266103:	or     %rdx,%rcx
  266106:	lock cmpxchg %rcx,(%rbx)
  26610b:	jne    266100 <take_gil+0x1c0>
  26610d:	mov    %r12,%rdi
  266110:	call   8af60 <pthread_mutex_unlock@plt>
  266115:	test   %eax,%eax
  266117:	jne    266145 <take_gil+0x205>
  266119:	mov    0x10(%rsp),%rax
  26611e:	mov    0x18(%rsp),%ecx
  266122:	mov    %ecx,(%rax)
  266124:	add    $0x38,%rsp
  266128:	pop    %rbx
  266129:	pop    %rbp
  26612a:	pop    %r12
  26612c:	pop    %r13
  26612e:	pop    %r14
  266130:	pop    %r15
  266132:	ret
  266133:	mov    0xa5c(%rdx),%eax
  266139:	test   %eax,%eax
  26613b:	je     2660e8 <take_gil+0x1a8>
  26613d:	lock orq $0x4,0x18(%r14)
  266143:	jmp    2660e8 <take_gil+0x1a8>
  266145:	lea    0x12d71c(%rip),%rsi        # 393868 <Py_Version+0xb8>
  26614c:	lea    0x12d975(%rip),%rdi        # 393ac8 <__func__.6>
  266153:	call   87650 <_Py_FatalErrorFunc@plt>
  266158:	mov    %r12,%rdi
  26615b:	call   8af60 <pthread_mutex_unlock@plt>
  266160:	test   %eax,%eax
  266162:	jne    266145 <take_gil+0x205>
  266164:	mov    0x1c(%rsp),%eax
  266168:	test   %eax,%eax
  26616a:	je     2660af <take_gil+0x16f>
  266170:	lock andq $0xfffffffffffffffe,0x18(%r13)
  266176:	jmp    2660af <take_gil+0x16f>
  26617b:	lea    0x12d70e(%rip),%rsi        # 393890 <Py_Version+0xe0>
  266182:	lea    0x12d93f(%rip),%rdi        # 393ac8 <__func__.6>
  266189:	call   87650 <_Py_FatalErrorFunc@plt>
  26618e:	lea    0x12d693(%rip),%rsi        # 393828 <Py_Version+0x78>
  266195:	lea    0x12d92c(%rip),%rdi        # 393ac8 <__func__.6>
  26619c:	call   87650 <_Py_FatalErrorFunc@plt>
  2661a1:	lea    0x12d738(%rip),%rsi        # 3938e0 <Py_Version+0x130>
  2661a8:	lea    0x12d919(%rip),%rdi        # 393ac8 <__func__.6>
  2661af:	call   87650 <_Py_FatalErrorFunc@plt>
  2661b4:	lea    0x12d755(%rip),%rsi        # 393910 <Py_Version+0x160>
  2661bb:	lea    0x12d906(%rip),%rdi        # 393ac8 <__func__.6>
  2661c2:	call   87650 <_Py_FatalErrorFunc@plt>
